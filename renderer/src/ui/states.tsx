import type { ComponentProps, ReactNode } from 'react';
import { ApiError, errorMessage } from '../lib/errors';
import { Icon, type IconName } from './Icon';
import { Spinner } from './basics';
import { PageHeader } from './layout';
import { Link } from '../lib/router';
import { SmallButton } from './SmallButton';
import './kit.css';

// What a screen shows while its data is not there: loading, failed (a refusal explained calmly), empty.

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
        <SmallButton tone="ghost" icon="refresh" onClick={onRetry}>
          Retry
        </SmallButton>
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

/**
 * The empty state of a list that can be searched or filtered: while `filtered`, it says nothing matches
 * (`noMatch`) and offers no action; otherwise it invites the first one (`title`, the text, `action`).
 */
export function ListEmpty({
  filtered,
  noMatch,
  ...empty
}: ComponentProps<typeof EmptyState> & {
  filtered: boolean;
  noMatch: { title: string; text: ReactNode };
}) {
  if (!filtered) return <EmptyState {...empty} />;
  return (
    <EmptyState icon={empty.icon} title={noMatch.title} testId={empty.testId} compact={empty.compact}>
      {noMatch.text}
    </EmptyState>
  );
}

/** A list that failed to load: a refusal (403) is explained calmly; anything else offers a retry. */
export function LoadFailure({
  error,
  onRetry,
  forbiddenTitle,
  forbiddenText,
  notFound,
}: {
  error: unknown;
  onRetry: () => void;
  forbiddenTitle: string;
  forbiddenText: ReactNode;
  /** What a missing thing (404) says, where one id is loaded: not an error to retry. */
  notFound?: NotFound;
}) {
  if (notFound && error instanceof ApiError && error.status === 404) {
    return (
      <EmptyState icon={notFound.icon} title={notFound.title} testId={notFound.testId}>
        {notFound.text}
      </EmptyState>
    );
  }
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

/** What a page about one thing says when the server does not know it (deleted, or outside the caller's scope). */
export interface NotFound {
  icon: IconName;
  title: string;
  text: ReactNode;
  testId: string;
}

/** What a refusal (403) of a list says: whose data it is and why the caller cannot read it. */
export interface Forbidden {
  title: string;
  text: ReactNode;
}

/**
 * Shown while a read has no data: the failure (a refusal explained calmly, anything else with Retry) once it
 * failed, a spinner until then.
 */
export function LoadState({
  of,
  loading,
  forbidden,
  notFound,
}: {
  of: { error: unknown; reload: () => void };
  loading?: string;
  forbidden: Forbidden;
  /** Where one thing is loaded by id: what a 404 says. */
  notFound?: NotFound;
}) {
  if (of.error)
    return (
      <LoadFailure
        error={of.error}
        onRetry={of.reload}
        forbiddenTitle={forbidden.title}
        forbiddenText={forbidden.text}
        notFound={notFound}
      />
    );
  return <LoadingBlock label={loading} />;
}

/**
 * A detail page (/devices/:id, /approvals/:id) before its record is on screen: the header with the way back, then
 * "no such …" with a link back for a 404 (unknown, or outside the caller's access), else the load state.
 */
export function DetailPlaceholder({
  className,
  title,
  back,
  of,
  loading,
  forbidden,
  notFound,
}: {
  className: string;
  title: string;
  back: { to: string; label: string };
  of: { error: unknown; reload: () => void };
  loading: string;
  forbidden: Forbidden;
  notFound: { icon: IconName; title: string; testId: string; text: ReactNode };
}) {
  return (
    <div className={`page ${className}`}>
      <PageHeader title={title} back={back} />
      {of.error instanceof ApiError && of.error.status === 404 ? (
        <EmptyState
          icon={notFound.icon}
          title={notFound.title}
          testId={notFound.testId}
          action={
            <Link to={back.to} className="btn btn-secondary btn-sm">
              Back to {back.label.toLowerCase()}
            </Link>
          }
        >
          {notFound.text}
        </EmptyState>
      ) : (
        <LoadState of={of} loading={loading} forbidden={forbidden} />
      )}
    </div>
  );
}
