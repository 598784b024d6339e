import type { AuditEntry } from '../../../../server/contract';
import { orgName, useOrganizations } from '../../lib/directory';
import { formatDateTime, relativeTo } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { Alert, Drawer, Facts } from '../../ui';
import { ChangesDiff } from './ChangesDiff';
import { CATEGORY_LABEL } from './model';
import { actorName, CategoryBadge, ResultPill } from './parts';

// One audit entry in the side drawer: who (user, role, address, user agent), what (action, resource), when
// (absolute and relative), the result and its error, the before/after of its changes, and every detail recorded.

const ACTOR_TYPE: Record<AuditEntry['actorType'], string> = {
  user: 'User',
  api_key: 'API key',
  agent: 'Agent',
  system: 'System',
};

const dash = (value: string | null | undefined) => value || <span className="muted">—</span>;

/** The details without the before/after the diff already shows. */
function otherDetails(entry: AuditEntry): Record<string, unknown> {
  const { before: _before, after: _after, ...rest } = entry.details;
  return rest;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="au-section">
      <h3>{title}</h3>
      {children}
    </section>
  );
}

export function EntryDrawer({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  const now = useNow(15_000);
  const { orgs } = useOrganizations();
  if (!entry) return null;
  const details = otherDetails(entry);
  const hasChanges = entry.changes.before !== null || entry.changes.after !== null;
  const at = Date.parse(entry.timestamp);
  return (
    <Drawer
      open
      label={`Audit entry ${entry.action}`}
      title={<span className="mono">{entry.action}</span>}
      sub={
        <span className="au-drawer-badges">
          <ResultPill result={entry.result} />
          <CategoryBadge category={entry.category} />
          <span title={formatDateTime(entry.timestamp)}>{relativeTo(at, now)}</span>
        </span>
      }
      onClose={onClose}
      testId="audit-drawer"
    >
      {entry.result !== 'success' ? (
        <Alert tone={entry.result === 'denied' ? 'warning' : 'danger'} testId="audit-error">
          {entry.errorMessage ??
            (entry.result === 'denied' ? 'Refused.' : 'It failed; no reason was recorded.')}
        </Alert>
      ) : null}
      <Section title="Who">
        <Facts
          rows={[
            [
              ACTOR_TYPE[entry.actorType],
              <>
                {actorName(entry.user, entry.actorType)}
                {entry.user.email && entry.user.name ? (
                  <span className="muted"> · {entry.user.email}</span>
                ) : null}
              </>,
              'audit-who',
            ],
            ['Role', dash(entry.user.role), 'audit-role'],
            ['IP address', <span className="mono">{dash(entry.ipAddress)}</span>, 'audit-ip'],
            ['User agent', <span className="au-wrap">{dash(entry.userAgent)}</span>, 'audit-agent'],
            ['Session', <span className="mono">{dash(entry.sessionId)}</span>],
          ]}
        />
      </Section>
      <Section title="What">
        <Facts
          rows={[
            ['Action', <span className="mono">{entry.action}</span>, 'audit-action'],
            ['Category', CATEGORY_LABEL[entry.category]],
            ['Resource', <span className="mono">{entry.resource.type}</span>, 'audit-resource-type'],
            ['Name', dash(entry.resource.name), 'audit-resource-name'],
            ['Id', <span className="mono au-wrap">{dash(entry.resource.id)}</span>],
            [
              'Organization',
              entry.orgId ? orgName(orgs, entry.orgId) : entry.partnerId ? 'Partner (own chain)' : 'Platform',
            ],
          ]}
        />
      </Section>
      <Section title="When">
        <Facts
          rows={[
            ['Local time', formatDateTime(entry.timestamp), 'audit-time'],
            ['Relative', relativeTo(at, now)],
            ['UTC', <span className="mono">{entry.timestamp}</span>],
          ]}
        />
      </Section>
      {hasChanges ? (
        <Section title="Changes">
          <ChangesDiff changes={entry.changes} />
        </Section>
      ) : null}
      <Section title="Details">
        {Object.keys(details).length ? (
          <pre className="ui-pre au-json" data-testid="audit-details">
            {JSON.stringify(details, null, 2)}
          </pre>
        ) : (
          <span className="muted small">Nothing more was recorded.</span>
        )}
      </Section>
      <div className="muted small mono au-entry-id" data-testid="audit-entry-id">
        {entry.id}
      </div>
    </Drawer>
  );
}
