import type { ElevationRequest } from '../../../../server/contract';
import { Icon } from '../../ui/Icon';
import { VirtualTable, type VirtualList, type VirtualTableSpec } from '../../ui';
import { Link } from '../../lib/router';
import { useNow } from '../../lib/hooks';
import { flowLabel, msSince, requestPath, waitingTone } from './format';
import { DeviceCell, Elapsed, RiskCell, SubjectCell, UserCell } from './parts';

// The pending inbox on the kit's virtualized table: thousands of requests scroll smoothly, the next page is read
// before the loaded rows run out. Each row has its own checkbox (for Deny selected) and is otherwise one link to
// the request.

const TABLE: VirtualTableSpec = {
  label: 'Pending elevation requests',
  rowHeight: 52,
  className: 'ap-inbox-row',
  minWidth: 1000,
  scrollTestId: 'inbox-scroll',
};
const COLUMNS = ['Waiting', 'Risk', 'Request', 'Organization', 'Device · site', 'User', 'Flow', ''];

export function InboxTable({
  list,
  fresh,
  selected,
  onToggle,
  onToggleAll,
  resetKey,
}: {
  list: VirtualList<ElevationRequest>;
  fresh: ReadonlySet<string>;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: (on: boolean) => void;
  resetKey: string;
}) {
  const now = useNow(1000);
  const { rows } = list;
  const allOn = rows.length > 0 && rows.every((r) => selected.has(r.id));
  return (
    <VirtualTable
      spec={TABLE}
      list={list}
      resetKey={resetKey}
      head={
        <>
          <span className="ap-check" role="columnheader">
            <input
              type="checkbox"
              checked={allOn}
              onChange={(e) => onToggleAll(e.target.checked)}
              aria-label={allOn ? 'Clear the selection' : 'Select every loaded request'}
              data-testid="inbox-select-all"
            />
          </span>
          <span className="ap-inbox-cols">
            {COLUMNS.map((c, i) => (
              <span key={`${c}-${i}`} role="columnheader">
                {c}
              </span>
            ))}
          </span>
        </>
      }
      renderRow={(r, row) => {
        const waited = msSince(r.requestedAt, now);
        const on = selected.has(r.id);
        return (
          <div
            {...row}
            className={`ap-inbox-row${fresh.has(r.id) ? ' ap-fresh' : ''}${on ? ' ap-selected' : ''}`}
            data-testid={`approval-row-${r.id}`}
            data-risk={r.riskLevel}
          >
            <label className="ap-check" role="cell">
              <input
                type="checkbox"
                checked={on}
                onChange={() => onToggle(r.id)}
                aria-label={`Select the request on ${r.deviceHostname}`}
                data-testid="inbox-select"
              />
            </label>
            <Link to={requestPath(r.id)} className="ap-inbox-cols ap-inbox-link" data-testid="inbox-open">
              <Elapsed
                ms={waited}
                tone={waitingTone(waited)}
                title={`Requested ${new Date(r.requestedAt).toLocaleString()}`}
                testId="approval-waiting"
              />
              <RiskCell request={r} />
              <SubjectCell request={r} />
              <span className="ap-cell" title={r.orgName} data-testid="inbox-org">
                {r.orgName}
              </span>
              <DeviceCell request={r} />
              <UserCell request={r} />
              <span className="ap-cell ap-muted">{flowLabel(r)}</span>
              <Icon name="chevron" size={14} className="row-chevron" />
            </Link>
          </div>
        );
      }}
    />
  );
}
