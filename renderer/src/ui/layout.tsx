import type { ReactNode } from 'react';
import { Link } from '../lib/router';
import { Icon } from './Icon';
import './kit.css';

// Page frame: the page header (title, subtitle, actions, back link), tab bars and card headers.

export function PageHeader({
  title,
  sub,
  actions,
  back,
}: {
  title: ReactNode;
  sub?: ReactNode;
  actions?: ReactNode;
  back?: { to: string; label: string };
}) {
  return (
    <div className="page-head adm-head">
      <div className="adm-head-main">
        {back ? (
          <Link to={back.to} className="adm-back" data-testid="page-back">
            <Icon name="arrowLeft" size={14} />
            {back.label}
          </Link>
        ) : null}
        <h1>{title}</h1>
        {sub ? <p className="page-sub">{sub}</p> : null}
      </div>
      {actions ? <div className="adm-head-actions">{actions}</div> : null}
    </div>
  );
}

export interface TabSpec {
  to: string;
  label: string;
  testId: string;
  active: boolean;
  badge?: ReactNode;
}

export function Tabs({ tabs, label }: { tabs: TabSpec[]; label: string }) {
  return (
    <nav className="adm-tabs" aria-label={label}>
      {tabs.map((t) => (
        <Link
          key={t.to}
          to={t.to}
          className={`adm-tab${t.active ? ' active' : ''}`}
          aria-current={t.active ? 'page' : undefined}
          data-testid={t.testId}
        >
          {t.label}
          {t.badge}
        </Link>
      ))}
    </nav>
  );
}

/** A card's header: its title, and whatever stands beside it. */
export function CardHead({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="ui-card-head">
      <h2>{title}</h2>
      {children}
    </header>
  );
}
