import type { ReactNode } from 'react';
import { Link } from '../lib/router';
import { Icon, type IconName } from './Icon';
import './kit.css';

// Page frame: the page header (title, subtitle, actions, back link), tab bars and card headers.

export interface PageHeaderProps {
  title: ReactNode;
  sub?: ReactNode;
  actions?: ReactNode;
  back?: { to: string; label: string };
}

export function PageHeader({ title, sub, actions, back }: PageHeaderProps) {
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

/** An admin screen: the `page adm` frame (with the feature's own class) and its header, described once, on top. */
export function AdminPage({
  className,
  testId,
  head,
  children,
}: {
  className?: string;
  testId?: string;
  head: PageHeaderProps;
  children: ReactNode;
}) {
  return (
    <div className={className ? `page adm ${className}` : 'page adm'} data-testid={testId}>
      <PageHeader {...head} />
      {children}
    </div>
  );
}

export interface TabSpec {
  to: string;
  label: string;
  testId: string;
  /** Left out: the tab is active when its link is the bar's `current` path. */
  active?: boolean;
  icon?: IconName;
  badge?: ReactNode;
}

/** A page's sections ({id, path, label}) as tabs: test ids `<testIdPrefix>-<id>`, `badge` beside a label. */
export function sectionTabs<S extends { id: string; path: string; label: string }>(
  sections: readonly S[],
  testIdPrefix: string,
  badge?: (section: S) => ReactNode,
): TabSpec[] {
  return sections.map((s) => ({
    to: s.path,
    label: s.label,
    testId: `${testIdPrefix}-${s.id}`,
    badge: badge?.(s),
  }));
}

/**
 * A bar of tabs that are links. `current` is the path of the page shown (a tab whose `to` is it is active);
 * `replace` switches tabs without adding to history; `className` lets a page size its own bar.
 */
export function Tabs({
  tabs,
  label,
  current,
  replace,
  className,
}: {
  tabs: TabSpec[];
  label: string;
  current?: string;
  replace?: boolean;
  className?: string;
}) {
  return (
    <nav className={className ? `adm-tabs ${className}` : 'adm-tabs'} aria-label={label}>
      {tabs.map((t) => {
        const active = t.active ?? t.to === current;
        return (
          <Link
            key={t.to}
            to={t.to}
            replace={replace}
            className={`adm-tab${active ? ' active' : ''}`}
            aria-current={active ? 'page' : undefined}
            data-testid={t.testId}
          >
            {t.icon ? <Icon name={t.icon} /> : null}
            {t.label}
            {t.badge}
          </Link>
        );
      })}
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
