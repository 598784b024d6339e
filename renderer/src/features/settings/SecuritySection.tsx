import { type ClipboardEvent } from 'react';
import { Icon } from '../../ui/Icon';
import { RemoveRowButton, SmallButton } from '../../ui/SmallButton';
import { Alert, Card, StatusPill } from '../../ui/basics';
import { checkEntry } from './ip-allowlist';
import { cleanAllowlist } from './model';
import type { SectionProps } from './sections';
import { plural } from '../../lib/format';

// Settings: the security policy section (MFA, sessions, IP allow-list, approval step-up).

/** Splits pasted text (lines, commas, spaces) into entries. */
export function splitEntries(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function SecuritySection({
  draft,
  baseline,
  update,
  errorFor,
  callerIp,
}: SectionProps & { callerIp: string | null }) {
  const rows = draft.allowlist;
  const field = 'settings.security.ipAllowlist';
  const listError = errorFor(field, false);
  const active = cleanAllowlist(rows);
  const stored = cleanAllowlist(baseline.allowlist);
  const setRows = (next: string[]) => update({ allowlist: next }, [field]);
  const firstSeen = new Map<string, number>();
  rows.forEach((r, i) => {
    const key = r.trim().toLowerCase();
    if (key && !firstSeen.has(key)) firstSeen.set(key, i);
  });

  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    const entries = splitEntries(event.clipboardData.getData('text'));
    if (entries.length < 2) return;
    event.preventDefault();
    const next = [...rows];
    next.splice(index, 1, ...entries);
    setRows(next);
  };

  const addCaller = () => {
    if (!callerIp) return;
    const next = rows.filter((r) => r.trim());
    if (!next.some((r) => r.trim() === callerIp)) next.push(callerIp);
    setRows(next);
  };

  return (
    <Card
      title="IP allowlist"
      icon="lock"
      testId="settings-security"
      actions={
        <span className="st-state" data-testid="allowlist-state">
          {stored.length === 0 ? (
            <StatusPill tone="muted">Currently off</StatusPill>
          ) : (
            <StatusPill tone="ok">Enforced · {plural(stored.length, 'entry', 'entries')}</StatusPill>
          )}
        </span>
      }
    >
      <Alert tone="warning" testId="allowlist-warning">
        <strong>A wrong list locks people out.</strong> While the list has entries, everyone on your partner
        team can sign in and work only from the listed addresses: anyone else is refused at sign-in and on
        every request, including you. Platform administrators and agents are not affected. Check that your
        current address is covered before you save.
      </Alert>

      <p className="muted">
        One entry per row: a single address (<span className="mono">203.0.113.7</span>,{' '}
        <span className="mono">2001:db8::1</span>) or a CIDR range (
        <span className="mono">198.51.100.0/24</span>, <span className="mono">2001:db8::/48</span>).
        IPv4-mapped IPv6 (<span className="mono">::ffff:10.0.0.0/104</span>) works too. Pasting a list into a
        row splits it into rows. An empty list turns the allowlist off.
      </p>

      <div className="st-allowlist" data-testid="allowlist">
        {rows.length === 0 ? (
          <div className="st-allow-empty muted">No entries: any address may sign in.</div>
        ) : (
          rows.map((row, i) => {
            const rowField = `${field}.${i}`;
            const check = row.trim() ? checkEntry(row) : null;
            const duplicate = row.trim() !== '' && firstSeen.get(row.trim().toLowerCase()) !== i;
            const changedHere = baseline.allowlist[i] !== row;
            const err = errorFor(rowField, changedHere);
            const state = !row.trim() ? 'blank' : err ? 'bad' : 'ok';
            return (
              <div className={`st-allow-row ${state}`} key={i} data-testid="allowlist-row">
                <span className="st-allow-icon" aria-hidden="true">
                  {state === 'ok' ? (
                    <Icon name="check" size={14} />
                  ) : state === 'bad' ? (
                    <Icon name="alert" size={14} />
                  ) : null}
                </span>
                <input
                  type="text"
                  className="mono"
                  aria-label={`Allowlist entry ${i + 1}`}
                  aria-invalid={state === 'bad'}
                  placeholder="203.0.113.0/24"
                  spellCheck={false}
                  autoComplete="off"
                  value={row}
                  autoFocus={row === '' && i === rows.length - 1 && rows.length > stored.length}
                  onChange={(e) => {
                    const next = [...rows];
                    next[i] = e.target.value;
                    setRows(next);
                  }}
                  onPaste={(e) => onPaste(i, e)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      setRows([...rows.slice(0, i + 1), '', ...rows.slice(i + 1)]);
                    }
                  }}
                  data-testid="allowlist-entry"
                />
                <span className={`st-allow-note${err ? ' field-error' : ''}`} data-testid="allowlist-note">
                  {err ??
                    (duplicate
                      ? 'Duplicate: stored once'
                      : check?.ok
                        ? check.describe
                        : row.trim()
                          ? ''
                          : 'Empty row: ignored')}
                </span>
                <RemoveRowButton what="entry" at={i} list={[rows, setRows]} testId="allowlist-remove" />
              </div>
            );
          })
        )}
      </div>
      {listError ? (
        <div className="field-error" data-testid="allowlist-error">
          {listError}
        </div>
      ) : null}
      {callerIp ? (
        <div className="st-caller" data-testid="allowlist-caller">
          <span>
            Your current address, as the server sees it: <span className="mono">{callerIp}</span>
          </span>
          {active.includes(callerIp) ? null : (
            <SmallButton tone="secondary" icon="plus" onClick={addCaller} testId="allowlist-add-caller">
              Add it
            </SmallButton>
          )}
        </div>
      ) : null}
      <div className="row gap-sm">
        <SmallButton
          tone="secondary"
          icon="plus"
          onClick={() => setRows([...rows, ''])}
          testId="allowlist-add"
        >
          Add entry
        </SmallButton>
        {rows.length > 0 ? (
          <SmallButton tone="ghost" onClick={() => setRows([])} testId="allowlist-clear">
            Clear list
          </SmallButton>
        ) : null}
        <span className="muted small st-allow-count">
          {active.length === 0
            ? 'Allowlist off after saving'
            : `${plural(active.length, 'entry', 'entries')} after saving`}
        </span>
      </div>
    </Card>
  );
}
