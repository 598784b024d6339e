import type { AvailablePermissionsResponse } from '../../../../server/contract';
import { Icon } from '../../ui/Icon';
import { keyOf } from './permissions';

// The permission matrix of a role: resources by actions, with what the role inherits and what it may grant.

export function PermissionMatrix({
  vocabulary,
  perms,
  readOnly,
  full,
  inheritedSource,
  showSources,
  missing,
  onToggle,
  onSetMany,
}: {
  vocabulary: AvailablePermissionsResponse;
  perms: Set<string>;
  readOnly: boolean;
  full: boolean;
  inheritedSource: (k: string) => string | null;
  showSources: boolean;
  missing: Set<string>;
  onToggle: (k: string, on: boolean) => void;
  onSetMany: (keys: string[], on: boolean) => void;
}) {
  const editable = (k: string) => !readOnly && !full && inheritedSource(k) === null;
  const toggleAll = (keys: string[]) => {
    const open = keys.filter(editable);
    if (open.length === 0) return;
    onSetMany(open, !open.every((k) => perms.has(k)));
  };

  return (
    <div className="pp-matrix-wrap">
      <table className="pp-matrix" data-testid="permission-matrix">
        <thead>
          <tr>
            <th className="pp-res">Resource</th>
            {vocabulary.actions.map((a) => (
              <th key={a}>
                <button
                  type="button"
                  className="pp-col-toggle"
                  disabled={readOnly || full}
                  title={`Toggle ${a} for every resource`}
                  onClick={() => toggleAll(vocabulary.resources.map((r) => keyOf(r, a)))}
                >
                  {a}
                </button>
              </th>
            ))}
            {showSources ? <th className="pp-src">Inherited from</th> : null}
          </tr>
        </thead>
        <tbody>
          {vocabulary.resources.map((r) => {
            const sources = [
              ...new Set(
                vocabulary.actions
                  .map((a) => inheritedSource(keyOf(r, a)))
                  .filter((s): s is string => s !== null),
              ),
            ];
            return (
              <tr key={r} data-testid="matrix-row" data-resource={r}>
                <th scope="row" className="pp-res">
                  <button
                    type="button"
                    className="pp-row-toggle"
                    disabled={readOnly || full}
                    title={`Toggle every action on ${r}`}
                    onClick={() => toggleAll(vocabulary.actions.map((a) => keyOf(r, a)))}
                  >
                    {r}
                  </button>
                </th>
                {vocabulary.actions.map((a) => {
                  const k = keyOf(r, a);
                  const source = inheritedSource(k);
                  const locked = source !== null || full;
                  const checked = locked || perms.has(k);
                  return (
                    <td
                      key={a}
                      className={`pp-cell${source ? ' inherited' : ''}${missing.has(k) ? ' missing' : ''}`}
                      title={
                        source
                          ? `Inherited from ${source}`
                          : full
                            ? 'Granted by full administration'
                            : undefined
                      }
                    >
                      <input
                        type="checkbox"
                        aria-label={`${r}: ${a}`}
                        checked={checked}
                        disabled={readOnly || locked}
                        onChange={(e) => onToggle(k, e.target.checked)}
                        data-testid={`perm-${r}-${a}`}
                        data-inherited={source ? 'true' : undefined}
                      />
                      {source ? <Icon name="lock" size={11} className="pp-lock" /> : null}
                    </td>
                  );
                })}
                {showSources ? <td className="pp-src muted small">{sources.join(', ')}</td> : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
