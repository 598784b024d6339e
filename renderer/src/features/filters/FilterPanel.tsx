import { useMemo, type ReactNode } from 'react';
import type { FilterConditionGroup } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { Alert, Spinner } from '../../ui/basics';
import { Link } from '../../lib/router';
import { formatTime } from '../../lib/format';
import { FilterBuilder } from './FilterBuilder';
import { toConditions, type GroupNode } from './model';
import { placeServerError, problemsOf } from './problems';
import type { Lookups } from '../../lib/directory';
import { useFilterPreview } from './usePreview';

// Builder + live preview, shared by the device list and the saved-filters screen. The preview runs only while
// every condition is complete; the server's verdict (unknown field, bad value) lands on the condition it names.

export interface FilterPanelState {
  /** The wire shape, or null while some condition is incomplete or wrong. */
  conditions: FilterConditionGroup | null;
  problemCount: number;
}

export function useFilterState(
  root: GroupNode,
): FilterPanelState & { problems: ReturnType<typeof problemsOf> } {
  return useMemo(() => {
    const problems = problemsOf(root);
    return {
      problems,
      problemCount: problems.size,
      conditions: problems.size === 0 ? toConditions(root) : null,
    };
  }, [root]);
}

const STATUS_TONE: Record<string, string> = {
  online: 'ok',
  offline: 'muted',
  maintenance: 'warn',
  quarantined: 'bad',
  decommissioned: 'muted',
};

export function FilterPanel({
  root,
  onChange,
  lookups,
  showIncomplete,
  actions,
  testId = 'filter-panel',
}: {
  root: GroupNode;
  onChange: (root: GroupNode) => void;
  lookups: Lookups;
  showIncomplete: boolean;
  /** Buttons under the preview; as a function they learn whether the server refused the conditions. */
  actions?: ReactNode | ((verdict: { refused: boolean }) => ReactNode);
  testId?: string;
}) {
  const state = useFilterState(root);
  const preview = useFilterPreview(state.conditions);
  const placed = useMemo(
    () =>
      preview.error
        ? placeServerError(root, preview.error)
        : { byNode: new Map<string, string>(), general: null },
    [preview.error, root],
  );
  const incomplete = state.problemCount > 0;
  const refused =
    preview.error instanceof ApiError && preview.error.status < 500 && preview.error.status !== 0;

  return (
    <div className="fb-panel ui-compact-fields" data-testid={testId}>
      <div className="fb-panel-main">
        <FilterBuilder
          root={root}
          onChange={onChange}
          lookups={lookups}
          problems={state.problems}
          serverProblems={placed.byNode}
          showIncomplete={showIncomplete}
        />
      </div>
      <aside className="ui-panel fb-preview" aria-live="polite">
        <div className="fb-preview-head">
          <span className="fb-preview-title">Preview</span>
          {preview.pending && !incomplete ? <Spinner /> : null}
        </div>
        <div className={`fb-preview-count${preview.stale || incomplete || preview.error ? ' dim' : ''}`}>
          <span className="fb-preview-number" data-testid="filter-preview-count">
            {preview.data ? preview.data.totalCount.toLocaleString('en-US') : '—'}
          </span>
          <span className="muted">{preview.data?.totalCount === 1 ? 'device matches' : 'devices match'}</span>
        </div>
        {incomplete ? (
          <div className="muted small" data-testid="filter-preview-incomplete">
            {showIncomplete || [...state.problems.values()].some((p) => !p.incomplete)
              ? state.problemCount === 1
                ? 'Complete the marked condition to update the count.'
                : `Complete the ${state.problemCount} marked conditions to update the count.`
              : state.problemCount === 1
                ? 'One condition is not filled in yet.'
                : `${state.problemCount} conditions are not filled in yet.`}
          </div>
        ) : preview.error ? (
          placed.general ? (
            <Alert tone={refused ? 'warning' : 'danger'} testId="filter-preview-error">
              {placed.general}
            </Alert>
          ) : (
            <div className="fb-problem small" data-testid="filter-preview-error">
              The server refused a condition; see the highlighted row.
            </div>
          )
        ) : preview.data ? (
          <div className="muted small">Evaluated {formatTime(Date.parse(preview.data.evaluatedAt))}</div>
        ) : null}
        {preview.data && preview.data.devices.length > 0 ? (
          <ul
            className={`fb-preview-list${preview.stale ? ' dim' : ''}`}
            data-testid="filter-preview-devices"
          >
            {preview.data.devices.map((d) => (
              <li key={d.id}>
                <span className={`dv-dot tone-${STATUS_TONE[d.status] ?? 'muted'}`} title={d.status} />
                <Link to={`/devices/${d.id}`} className="fb-preview-name">
                  {d.displayName || d.hostname}
                </Link>
                <span className="muted small">{d.osType}</span>
              </li>
            ))}
            {preview.data.totalCount > preview.data.devices.length ? (
              <li className="muted small">
                and {(preview.data.totalCount - preview.data.devices.length).toLocaleString('en-US')} more
              </li>
            ) : null}
          </ul>
        ) : null}
        {actions ? (
          <div className="fb-preview-actions">
            {typeof actions === 'function' ? actions({ refused: refused && !incomplete }) : actions}
          </div>
        ) : null}
      </aside>
    </div>
  );
}
