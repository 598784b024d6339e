import { useState, type KeyboardEvent } from 'react';
import { Icon } from '../../ui/Icon';
import { Alert } from '../../ui/basics';
import { RemovableChip } from '../../ui';
import type { GatehousePermissionResource } from '../../../../server/contract';

/**
 * The scopes offered as one-click suggestions: the route-check vocabulary (spec 1) of what Gatehouse has, every
 * permission some route checks (the contract's GATEHOUSE_PERMISSION_RESOURCES; scripts, alerts, automations and
 * remote are the spec's features Gatehouse lacks). pam:approve is left to be typed by name on purpose: a key that
 * decides elevations is granted deliberately (EXPLICIT_API_KEY_SCOPES). Any other `resource:action` can still be
 * typed: the API accepts the spec's whole vocabulary.
 */
export const SUGGESTED_SCOPES = [
  'devices:read',
  'devices:write',
  'devices:delete',
  'devices:execute',
  'users:read',
  'users:write',
  'users:delete',
  'users:invite',
  'organizations:read',
  'organizations:write',
  'organizations:delete',
  'sites:read',
  'sites:write',
  'sites:delete',
  'audit:read',
  'audit:export',
  'pam:manage_policy',
] as const satisfies ReadonlyArray<`${GatehousePermissionResource}:${string}`>;

export const WILDCARD = '*';

const SCOPE_RE = /^[a-z][a-z0-9_-]{0,49}:[a-z][a-z0-9_-]{0,49}$/;

/** Why a typed scope is refused, or null. */
export function scopeProblem(value: string): string | null {
  if (value === WILDCARD) return null;
  if (!value.includes(':')) return 'Scopes have the form resource:action, for example devices:read.';
  // Scope checks compare whole strings, so `devices:*` would look like a grant and pass nothing.
  if (value.includes('*')) return 'Partial wildcards are not supported: name each action, or use * alone.';
  if (!SCOPE_RE.test(value)) return 'Use lowercase letters, digits, - or _ on each side of the colon.';
  return null;
}

export function ScopeEditor({
  id,
  scopes,
  onChange,
}: {
  id: string;
  scopes: string[];
  onChange: (scopes: string[]) => void;
}) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);

  const add = (raw: string) => {
    const value = raw.trim().toLowerCase();
    if (!value) return;
    const why = scopeProblem(value);
    if (why) {
      setProblem(why);
      return;
    }
    setProblem(null);
    setDraft('');
    if (!scopes.includes(value)) onChange([...scopes, value]);
  };
  const remove = (value: string) => onChange(scopes.filter((s) => s !== value));

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',' || e.key === ' ') {
      e.preventDefault();
      add(draft);
    } else if (e.key === 'Backspace' && draft === '' && scopes.length > 0) {
      remove(scopes[scopes.length - 1] ?? '');
    }
  };

  const suggestions = SUGGESTED_SCOPES.filter((s) => !scopes.includes(s));
  const visible = showAll ? suggestions : suggestions.slice(0, 10);
  const wildcard = scopes.includes(WILDCARD);

  return (
    <div className="kx-scopes" data-testid="scope-editor">
      <div className="ui-chipbox kx-chipbox" onClick={() => document.getElementById(id)?.focus()}>
        {scopes.map((s) => (
          <RemovableChip
            key={s}
            label={s}
            onRemove={() => remove(s)}
            className={`kx-chip${s === WILDCARD ? ' kx-chip-warn' : ''}`}
            testId="scope-chip"
            removeTestId={`scope-remove-${s}`}
            iconSize={12}
          >
            <span className="mono">{s}</span>
          </RemovableChip>
        ))}
        <input
          id={id}
          className="kx-chip-input mono"
          autoComplete="off"
          spellCheck={false}
          placeholder={scopes.length ? '' : 'resource:action, Enter to add'}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            if (draft.trim()) add(draft);
          }}
          data-testid="api-key-scope-input"
        />
      </div>
      {problem ? <div className="field-error">{problem}</div> : null}
      <div className="kx-suggest">
        {visible.map((s) => (
          <button
            key={s}
            type="button"
            className="kx-suggest-item mono"
            onClick={() => onChange([...scopes, s])}
            data-testid="api-key-scope-suggestion"
            data-scope={s}
          >
            <Icon name="plus" size={11} />
            {s}
          </button>
        ))}
        {suggestions.length > 10 ? (
          <button type="button" className="link small" onClick={() => setShowAll((v) => !v)}>
            {showAll ? 'Fewer' : `${suggestions.length - 10} more`}
          </button>
        ) : null}
        {!wildcard ? (
          <button
            type="button"
            className="kx-suggest-item kx-suggest-wild mono"
            onClick={() => onChange([...scopes, WILDCARD])}
            data-testid="api-key-scope-wildcard"
          >
            <Icon name="plus" size={11} />* (all scopes)
          </button>
        ) : null}
      </div>
      {wildcard ? (
        <Alert tone="warning" testId="api-key-wildcard-warning">
          <strong>*</strong> passes every scope check: this key can do anything an integration can do in its
          organization. Prefer the narrowest scopes the integration needs.
        </Alert>
      ) : scopes.length === 0 ? (
        <div className="field-hint">
          A key without scopes reaches only endpoints that do not check scopes. Add the scopes the integration
          needs.
        </div>
      ) : null}
    </div>
  );
}
