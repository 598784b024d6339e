import { useState } from 'react';
import { AUDIT_EXPORT_CAP, type AuditEntry } from '../../../../server/contract';
import { formatCount, plural } from '../../lib/format';
import { useDebounced } from '../../lib/hooks';
import { useLiveEvent } from '../../lib/live/useLiveEvent';
import { useSession } from '../../lib/session';
import { EmptyState, PagedListStates, SmallButton } from '../../ui';
import { useAuditLog } from './api';
import { EntryDrawer } from './EntryDrawer';
import { useAuditExport } from './export';
import { ExportStrip } from './ExportStrip';
import { LogFilterBar } from './LogFilterBar';
import { LogTable } from './LogTable';
import { filtered, NO_FILTERS, queryOf, type LogFilters } from './model';

// /audit: the log, newest first, filtered by actor, action, resource, result, category, organization and time,
// or searched by free text (the search endpoint, AND the filters). A row opens the entry drawer; the same
// filters export the log as CSV or JSON. New activity is announced by push and read on "Refresh", so the rows
// never jump under the technician's eyes.

const FORBIDDEN = {
  title: 'The audit log is not available to you',
  text: 'Reading the audit log needs the audit:read permission.',
};

/** Typing settles for this long before the log is asked again. */
const TYPING_MS = 300;

export function LogView() {
  const [filters, setFilters] = useState<LogFilters>(NO_FILTERS);
  const settled = useDebounced(filters, TYPING_MS);
  const { filters: query, q } = queryOf(settled);
  const log = useAuditLog(query, q);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState<AuditEntry | null>(null);
  const [fresh, setFresh] = useState(false);
  const canExport = useSession((s) => s.user?.permissions.includes('audit:export') ?? false);
  const exporter = useAuditExport();
  const resetKey = JSON.stringify([query, q]);

  // A push names the new entry but not all it would be filtered on (organization, names, category): so the
  // button says there is new activity and reading again shows whether any of it matches.
  useLiveEvent('audit.created', () => setFresh(true));

  const showFresh = () => {
    setFresh(false);
    setActive(-1);
    log.reload();
  };

  return (
    <div className="au-log-view">
      <LogFilterBar
        filters={filters}
        onChange={(next) => {
          setFilters(next);
          setActive(-1);
          // New filters read the log afresh.
          setFresh(false);
        }}
      />

      <div className="adm-toolbar au-toolbar">
        <span className="muted small" data-testid="audit-count">
          {log.loading
            ? 'Loading…'
            : `${plural(log.total, 'entry', 'entries')}${q ? ` matching “${q}”` : ''}`}
        </span>
        {fresh ? (
          <SmallButton tone="secondary" icon="refresh" onClick={showFresh} testId="audit-fresh">
            New activity · Refresh
          </SmallButton>
        ) : null}
        <span className="grow" />
        <span className="muted small au-keys" aria-hidden="true">
          ↑ ↓ move · Enter opens · Esc closes
        </span>
        {(['csv', 'json'] as const).map((format) => (
          <SmallButton
            key={format}
            tone={format === 'csv' ? 'secondary' : 'ghost'}
            icon="download"
            disabled={!canExport || exporter.progress?.state === 'running' || log.total === 0}
            title={
              canExport
                ? `Export the ${formatCount(Math.min(log.total, AUDIT_EXPORT_CAP))} newest matching entries`
                : 'Exporting needs the audit:export permission'
            }
            onClick={() => exporter.run(query, q, format)}
            testId={`audit-export-${format}`}
          >
            {format.toUpperCase()}
          </SmallButton>
        ))}
      </div>
      {exporter.progress ? (
        <ExportStrip progress={exporter.progress} onCancel={exporter.cancel} onDismiss={exporter.dismiss} />
      ) : null}

      <PagedListStates
        list={log}
        loading="Loading the audit log…"
        forbidden={FORBIDDEN}
        emptyWhileSwitching
        empty={
          <EmptyState
            icon="audit"
            title={filtered(settled) ? 'No entry matches' : 'No audit entries yet'}
            testId="audit-empty"
          >
            {filtered(settled)
              ? 'Nothing in the log matches these filters. Widen the time range or clear a filter.'
              : 'Every sign-in, change and refusal in your organizations is recorded here as it happens.'}
          </EmptyState>
        }
      >
        <LogTable
          list={log}
          active={active}
          openId={open?.id ?? null}
          onActive={setActive}
          onOpen={setOpen}
          resetKey={resetKey}
        />
      </PagedListStates>
      <EntryDrawer entry={open} onClose={() => setOpen(null)} />
    </div>
  );
}
