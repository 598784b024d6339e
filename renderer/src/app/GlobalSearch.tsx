import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { SEARCH_QUERY_MAX, type SearchResult } from '../../../server/contract';
import { useSearch } from '../lib/search';
import { navigate } from '../lib/router';
import { sectionFor } from './routes';
import { Icon, type IconName } from '../ui/Icon';
import './global-search.css';

// The global search in the top bar (spec 2, GET /search): Ctrl/Cmd-K focuses it, typing searches after a short
// pause, arrow keys move through the results, Enter opens one. Devices open their detail; every other kind its
// href (pages, requests, rules, organizations, people). The server offers only what the caller may open.

const DEBOUNCE_MS = 200;
const LIMIT = 12;

/** Each kind's group heading and icon; scripts and alerts are the spec's kinds the server never returns. */
const KINDS: Record<SearchResult['type'], { label: string; icon: IconName }> = {
  settings: { label: 'Pages', icon: 'settings' },
  devices: { label: 'Devices', icon: 'devices' },
  elevation_requests: { label: 'Elevation requests', icon: 'approvals' },
  elevation_rules: { label: 'Elevation rules', icon: 'lock' },
  organizations: { label: 'Organizations', icon: 'tenants' },
  users: { label: 'Users', icon: 'users' },
  scripts: { label: 'Scripts', icon: 'activity' },
  alerts: { label: 'Alerts', icon: 'activity' },
};

/** A page shows its section's icon (as in the sidebar); other results their kind's. */
function iconOf(r: SearchResult): IconName {
  const section = r.type === 'settings' && r.href ? sectionFor(r.href.split('?')[0] ?? r.href) : undefined;
  return section?.icon ?? KINDS[r.type].icon;
}

function targetOf(r: SearchResult): string | null {
  if (r.href) return r.href;
  if (r.type === 'devices') return `/devices/${encodeURIComponent(r.id)}`;
  return null;
}

export function SearchBox() {
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  // The highlighted row belongs to one answer: a new answer starts again at its first row.
  const [cursor, setCursor] = useState<{ of: SearchResult[] | undefined; index: number }>({
    of: undefined,
    index: 0,
  });
  const q = text.trim().slice(0, SEARCH_QUERY_MAX);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        input.current?.focus();
        input.current?.select();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const current = useSearch(q, LIMIT, DEBOUNCE_MS);
  const active = cursor.of === current?.results ? cursor.index : 0;
  const setActive = (next: (index: number) => number) =>
    setCursor({ of: current?.results, index: next(active) });

  const results = current?.results ?? [];
  // Results grouped by kind, in the order the server ranked the first of each kind.
  const kinds = [...new Set(results.map((r) => r.type))];
  const ordered = kinds.flatMap((k) => results.filter((r) => r.type === k));
  const showList = open && q.length > 0;

  const choose = (r: SearchResult | undefined) => {
    if (!r) return;
    const to = targetOf(r);
    if (!to) return;
    setOpen(false);
    setText('');
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    navigate(to);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (ordered.length ? (a + 1) % ordered.length : 0));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => (ordered.length ? (a - 1 + ordered.length) % ordered.length : 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(ordered[active]);
    } else if (e.key === 'Escape') {
      if (text) setText('');
      else input.current?.blur();
      setOpen(false);
    }
  };

  const activeId = showList && ordered[active] ? `${listId}-${active}` : undefined;

  return (
    <div
      className="gs"
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <Icon name="search" size={14} className="gs-icon" />
      <input
        ref={input}
        type="text"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-autocomplete="list"
        aria-label="Search pages, devices, requests, rules, organizations and people"
        placeholder="Search pages, devices, requests…"
        value={text}
        maxLength={SEARCH_QUERY_MAX}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
        data-testid="global-search"
      />
      <kbd className="gs-kbd" aria-hidden="true">
        Ctrl K
      </kbd>
      {showList ? (
        <div
          className="gs-pop"
          id={listId}
          role="listbox"
          aria-label="Search results"
          data-testid="global-search-results"
        >
          {!current ? (
            <div className="gs-note">Searching…</div>
          ) : current.error ? (
            <div className="gs-note gs-error">{current.error}</div>
          ) : ordered.length === 0 ? (
            <div className="gs-note" data-testid="global-search-empty">
              Nothing found for “{q}”.
            </div>
          ) : (
            kinds.map((kind) => (
              <div key={kind} role="group" aria-label={KINDS[kind].label}>
                <div className="ui-eyebrow gs-kind">{KINDS[kind].label}</div>
                {ordered.map((r, i) =>
                  r.type !== kind ? null : (
                    <div
                      key={`${r.type}:${r.id}`}
                      id={`${listId}-${i}`}
                      role="option"
                      aria-selected={i === active}
                      aria-disabled={!targetOf(r)}
                      className={`gs-item${i === active ? ' active' : ''}${targetOf(r) ? '' : ' disabled'}`}
                      onMouseEnter={() => setActive(() => i)}
                      onMouseDown={(e) => e.preventDefault()}
                      onClick={() => choose(r)}
                      data-testid="global-search-result"
                    >
                      <Icon name={iconOf(r)} size={14} />
                      <span className="gs-title">{r.title}</span>
                      {r.description ? <span className="gs-desc">{r.description}</span> : null}
                    </div>
                  ),
                )}
              </div>
            ))
          )}
        </div>
      ) : null}
    </div>
  );
}
