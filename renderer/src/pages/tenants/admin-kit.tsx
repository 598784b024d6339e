// Building blocks shared by the administration screens (tenants, people, settings): data loading, tabs,
// toggles, row menus, empty and error states. Styles live in admin-kit.css; every class is prefixed `adm-`.

import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import type { Pagination, Scope } from '../../../../server/contract';
import { ApiError, api, errorMessage } from '../../api/client';
import { Link } from '../../router';
import { useSession } from '../../session/store';
import { Icon, type IconName } from '../../components/Icon';
import { Spinner } from '../../components/ui';
import { useAsyncAction } from '../../lib/action';
import './admin-kit.css';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer for this path arrives (reloads keep showing the previous data). */
  loading: boolean;
  reload: () => void;
}

interface Loaded<T> {
  path: string;
  version: number;
  data?: T;
  error?: unknown;
}

/** GET `path` (null: nothing to load yet). Reloads keep the previous answer on screen until the new one lands. */
export function useResource<T>(path: string | null): Resource<T> {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<Loaded<T> | null>(null);

  useEffect(() => {
    if (path === null) return;
    let cancelled = false;
    api<T>(path).then(
      (data) => {
        if (!cancelled) setState({ path, version, data });
      },
      (error: unknown) => {
        if (!cancelled) setState({ path, version, error });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [path, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const samePath = state !== null && state.path === path;
  return {
    data: samePath ? state.data : undefined,
    error: samePath && state.version === version ? state.error : undefined,
    loading: path !== null && !samePath,
    reload,
  };
}

/** List endpoints answer either a bare array or `{data: [...]}` (paginated or not). */
export function asList<T>(value: T[] | { data: T[] } | undefined | null): T[] {
  if (!value) return [];
  return Array.isArray(value) ? value : Array.isArray(value.data) ? value.data : [];
}

export function paginationOf(value: unknown): Pagination | null {
  if (value && typeof value === 'object' && 'pagination' in value) {
    const p = (value as { pagination: unknown }).pagination;
    if (p && typeof p === 'object' && 'total' in p) return p as Pagination;
  }
  return null;
}

/** Query string from the set values of `params`. */
export function qs(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function useScope(): Scope | null {
  return useSession((s) => s.user?.scope ?? null);
}

/** Slug rule shared with self-registration: lowercase, runs of other characters become one hyphen, 50 chars. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '');
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Field-level messages from a 400 VALIDATION_ERROR (`issues[].path`), keyed by the first path segment. */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') return out;
  const issues = err.body?.issues;
  if (!Array.isArray(issues)) return out;
  for (const issue of issues as Array<{ path?: unknown; message?: unknown }>) {
    if (typeof issue.path !== 'string' || typeof issue.message !== 'string') continue;
    const key = issue.path.split('.')[0] ?? '';
    if (key && !(key in out)) out[key] = issue.message;
  }
  return out;
}

/** IANA zones offered by the browser, with UTC first (Intl's list leaves it out in some engines). */
export function timeZones(): string[] {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

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

export function LoadingBlock({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="adm-loading" data-testid="loading">
      <Spinner label={label} />
    </div>
  );
}

export function ErrorBlock({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="adm-error" role="alert" data-testid="load-error">
      <Icon name="alert" />
      <span>{errorMessage(error)}</span>
      {onRetry ? (
        <button type="button" className="btn btn-ghost btn-sm" onClick={onRetry}>
          <Icon name="refresh" size={14} />
          Retry
        </button>
      ) : null}
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  children,
  action,
  testId = 'empty-state',
  compact,
}: {
  icon: IconName;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  testId?: string;
  compact?: boolean;
}) {
  return (
    <div className={`empty${compact ? ' adm-empty-compact' : ''}`} data-testid={testId}>
      <div className="empty-icon">
        <Icon name={icon} size={compact ? 20 : 26} />
      </div>
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

/** An on/off switch that is a real checkbox underneath (keyboard, forms and screen readers work as usual). */
export function Toggle({
  id,
  checked,
  onChange,
  label,
  hint,
  disabled,
}: {
  id: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  label: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  return (
    <label className={`adm-toggle${disabled ? ' disabled' : ''}`} htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={id}
      />
      <span className="adm-switch" aria-hidden="true" />
      <span className="adm-toggle-text">
        <span className="adm-toggle-label">{label}</span>
        {hint ? <span className="adm-toggle-hint">{hint}</span> : null}
      </span>
    </label>
  );
}

export interface MenuItem {
  label: string;
  onSelect: () => void;
  icon?: IconName;
  danger?: boolean;
  testId: string;
  hidden?: boolean;
}

/** A row's actions behind one button: keeps dense tables calm. Opens below the button, right-aligned. */
export function RowMenu({ items, label, testId }: { items: MenuItem[]; label: string; testId: string }) {
  const [open, setOpen] = useState(false);
  const [pos, setPos] = useState<{ top: number; right: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const visible = items.filter((i) => !i.hidden);

  useLayoutEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      const target = event.target as Node | null;
      if (
        event.type === 'mousedown' &&
        target &&
        (menu.current?.contains(target) || button.current?.contains(target))
      )
        return;
      setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('scroll', close, true);
    window.addEventListener('resize', close);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('scroll', close, true);
      window.removeEventListener('resize', close);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (visible.length === 0) return null;

  const toggle = () => {
    const rect = button.current?.getBoundingClientRect();
    if (rect) setPos({ top: rect.bottom + 4, right: Math.max(8, window.innerWidth - rect.right) });
    setOpen((o) => !o);
  };

  const onMenuKey = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const buttons = [...(menu.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      event.key === 'ArrowDown' ? (at + 1) % buttons.length : (at - 1 + buttons.length) % buttons.length;
    buttons[next]?.focus();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-sm adm-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        title={label}
        onClick={toggle}
        data-testid={testId}
      >
        <span aria-hidden="true">•••</span>
      </button>
      {open && pos ? (
        <div
          ref={menu}
          className="adm-menu"
          role="menu"
          style={{ top: pos.top, right: pos.right }}
          onKeyDown={onMenuKey}
        >
          {visible.map((item) => (
            <button
              key={item.testId}
              type="button"
              role="menuitem"
              className={`adm-menu-item${item.danger ? ' danger' : ''}`}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
              data-testid={item.testId}
            >
              {item.icon ? <Icon name={item.icon} size={14} /> : <span className="adm-menu-spacer" />}
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </>
  );
}

export function SearchBox({
  value,
  onChange,
  placeholder,
  testId,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  testId: string;
}) {
  return (
    <div className="adm-search">
      <Icon name="search" size={14} />
      <input
        type="search"
        value={value}
        placeholder={placeholder}
        aria-label={placeholder}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </div>
  );
}

export function Pager({
  pagination,
  onPage,
  testId = 'pager',
}: {
  pagination: Pagination | null;
  onPage: (page: number) => void;
  testId?: string;
}) {
  if (!pagination || pagination.total <= pagination.limit) return null;
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.limit));
  const from = (pagination.page - 1) * pagination.limit + 1;
  const to = Math.min(pagination.total, pagination.page * pagination.limit);
  return (
    <div className="adm-pager" data-testid={testId}>
      <span className="muted small">
        {from}–{to} of {pagination.total}
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={pagination.page <= 1}
        onClick={() => onPage(pagination.page - 1)}
      >
        Previous
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={pagination.page >= pages}
        onClick={() => onPage(pagination.page + 1)}
      >
        Next
      </button>
    </div>
  );
}

/** A date-only control over an ISO timestamp (contract dates): shows YYYY-MM-DD, stores midnight UTC. */
export function isoToDateInput(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

export function dateInputToIso(value: string): string | null {
  return value ? new Date(`${value}T00:00:00.000Z`).toISOString() : null;
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    timeZone: 'UTC',
  });
}

/** A list that failed to load: a refusal (403) is explained calmly; anything else offers a retry. */
export function LoadFailure({
  error,
  onRetry,
  forbiddenTitle,
  forbiddenText,
}: {
  error: unknown;
  onRetry: () => void;
  forbiddenTitle: string;
  forbiddenText: ReactNode;
}) {
  if (error instanceof ApiError && error.code === 'PERMISSION_DENIED') {
    const required = typeof error.body?.required === 'string' ? error.body.required : null;
    return (
      <EmptyState icon="lock" title="Your role does not include this" testId="access-notice">
        {required ? (
          <>
            Viewing this needs the <code>{required}</code> permission.{' '}
          </>
        ) : null}
        An administrator of your tenant can give you a role that includes it.
      </EmptyState>
    );
  }
  if (error instanceof ApiError && error.status === 403 && error.code !== 'MFA_REQUIRED') {
    return (
      <EmptyState icon="lock" title={forbiddenTitle} testId="access-notice">
        {forbiddenText} <span className="adm-server-says">The server said: “{error.message}”.</span>
      </EmptyState>
    );
  }
  return <ErrorBlock error={error} onRetry={onRetry} />;
}

/**
 * The row a confirmation dialog (e.g. delete) acts on, with the write's busy/error. The dialog stays mounted for
 * every row, so opening it for a row clears the error the last one left.
 */
export function useTarget<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const action = useAsyncAction();
  return {
    target,
    action,
    open: (value: T) => {
      action.reset();
      setTarget(value);
    },
    close: () => setTarget(null),
  };
}

/** The <option>s of a label list (types, plans, statuses). */
export function LabelOptions<V extends string>({ options }: { options: Array<{ value: V; label: string }> }) {
  return (
    <>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
  );
}

/** Radio buttons drawn as cards: a title (marked “· current” when `current` is given and matches) and a line. */
export function RadioCards<V extends string>({
  name,
  options,
  value,
  current,
  onChange,
  testId,
  className,
}: {
  name: string;
  options: Array<{ value: V; title: string; desc: string }>;
  value: V;
  current?: V;
  onChange: (value: V) => void;
  testId: (value: V) => string;
  /** Extra class on every card. */
  className?: string;
}) {
  return (
    <>
      {options.map((o) => (
        <label key={o.value} className={`adm-radio-card${className ? ` ${className}` : ''}`}>
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
            data-testid={testId(o.value)}
          />
          <span>
            <span className="adm-radio-title">
              {o.title}
              {current !== undefined && current === o.value ? (
                <span className="muted small"> · current</span>
              ) : null}
            </span>
            <span className="adm-radio-desc">{o.desc}</span>
          </span>
        </label>
      ))}
    </>
  );
}
