import type { Section } from './routes';
import { Link } from '../lib/router';
import { Icon, Logo } from '../ui/Icon';
import { Spinner } from '../ui/basics';
import { EmptyState } from '../ui/states';
import { useDocumentTitle } from '../lib/hooks';

export function PlaceholderPage({ section }: { section: Section }) {
  useDocumentTitle(section.label);
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>{section.label}</h1>
          <p className="page-sub">{section.summary}</p>
        </div>
      </div>
      <div className="empty" data-testid="section-placeholder" data-section={section.id}>
        <div className="empty-icon">
          <Icon name={section.icon} size={26} />
        </div>
        <h2>{section.label} arrives in a later release</h2>
        <p>
          This part of the console is not built yet. Nothing is hidden here and no sample data is shown: when
          it ships, it will work against this server&apos;s real data.
        </p>
        <Link to="/" className="btn btn-secondary btn-sm">
          Back to overview
        </Link>
      </div>
    </div>
  );
}

export function NotFoundPage() {
  useDocumentTitle('Not found');
  return (
    <div className="page">
      <EmptyState
        icon="alert"
        title={`There is no page at ${window.location.pathname}`}
        testId="not-found"
        action={
          <Link to="/" className="btn btn-secondary btn-sm">
            Back to overview
          </Link>
        }
      >
        The link may be old, or the section may have moved.
      </EmptyState>
    </div>
  );
}

export function BootScreen() {
  return (
    <div className="boot" data-testid="boot">
      <Logo size={34} />
      <Spinner label="Restoring your session…" />
    </div>
  );
}

export function UnreachableScreen({ onRetry }: { onRetry: () => void }) {
  useDocumentTitle('Server unreachable');
  return (
    <div className="boot" data-testid="unreachable">
      <Logo size={34} />
      <h1>Cannot reach the Gatehouse server</h1>
      <p className="muted">
        The console is served by the server at <span className="mono">{window.location.host}</span>. It may be
        starting or stopped.
      </p>
      <button type="button" className="btn btn-primary" onClick={onRetry} data-testid="unreachable-retry">
        <Icon name="refresh" />
        Try again
      </button>
    </div>
  );
}
