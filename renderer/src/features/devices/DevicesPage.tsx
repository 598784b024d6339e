import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SavedFilter } from '../../../../server/contract';
import { Icon } from '../../ui/Icon';
import { SmallButton } from '../../ui/SmallButton';
import { useDialog, useDocumentTitle } from '../../lib/hooks';
import { Link, useRouter } from '../../lib/router';
import { EmptyState, ListToolbar, PagedListStates, PageHeader } from '../../ui';

import { FilterPanel, useFilterState } from '../filters';
import { SaveFilterDialog } from '../filters';
import { fromConditions, newGroup, countConditions, type GroupNode } from '../filters';
import { useLookups } from '../../lib/directory';
import { summarize } from '../filters';
import { ChoiceSelect, nameChoices } from '../../ui';
import { DeviceTable, SORT_LABELS, type SortKey } from './DeviceTable';
import { listQuery, parseConditions, readUrl, writeUrl, type UrlState } from './list-url';
import { SimulatorPanel, useSimulatorStatus } from './SimulatorPanel';
import { useDebounced } from '../../lib/hooks';
import { useDeviceFacets, useDeviceList } from './api';
import { formatCount, plural } from '../../lib/format';
import './devices.css';
import { useSavedFilter } from '../filters';

// /devices: the fleet in one virtualized table, shaped by the state in the URL (list-url.ts).

const STATUS_CHIPS = [
  { value: '', label: 'All' },
  { value: 'online', label: 'Online' },
  { value: 'offline', label: 'Offline' },
] as const;
const FACETS = ['status', 'org'] as const;

const DEVICES_FORBIDDEN = {
  title: 'Devices are not available to you',
  text: 'Your account cannot list devices.',
};

export function DevicesPage() {
  useDocumentTitle('Devices');
  const search = useRouter((s) => s.search);
  const url = useMemo(() => readUrl(search), [search]);
  const set = useCallback(
    (patch: Partial<UrlState>) => writeUrl({ ...readUrl(window.location.search), ...patch }),
    [],
  );
  const lookups = useLookups();
  const sim = useSimulatorStatus();

  const [q, setQ] = useState(url.q);
  const debouncedQ = useDebounced(q, 300);
  useEffect(() => {
    if (debouncedQ !== readUrl(window.location.search).q) set({ q: debouncedQ });
  }, [debouncedQ, set]);

  const query = listQuery(url);
  const list = useDeviceList(query);
  // One facets request for the header and the chips: the list's filters without its status, so each chip
  // counts what choosing it would show, and the header names how many organizations hold those devices.
  const facets = useDeviceFacets(
    listQuery({ ...url, sort: 'hostname', order: 'asc' }, { status: '' }),
    FACETS,
  );
  const counts: Record<string, number | undefined> = facets
    ? {
        '': facets.total,
        ...Object.fromEntries(
          STATUS_CHIPS.filter((c) => c.value).map((c) => [
            c.value,
            facets.facets.status?.find((f) => f.value === c.value)?.count ?? 0,
          ]),
        ),
      }
    : {};
  const spread = facets?.facets.org ? facets.facets.org.filter((f) => f.count > 0).length : null;

  const savedFilter = useSavedFilter(url.filterId || null);
  const applied = parseConditions(url.conditions);

  const [builderOpen, setBuilderOpen] = useState(false);
  const [root, setRoot] = useState<GroupNode>(() => (applied ? fromConditions(applied) : newGroup()));
  const [tried, setTried] = useState(false);
  const saving = useDialog<true>();
  const [savedNotice, setSavedNotice] = useState<SavedFilter | null>(null);
  const state = useFilterState(root);

  const orgName = useCallback(
    (id: string) =>
      lookups.orgs.find((o) => o.id === id)?.name ?? (lookups.loaded ? 'Unknown organization' : '…'),
    [lookups],
  );
  const names = useCallback(
    (id: string) =>
      lookups.orgs.find((o) => o.id === id)?.name ?? lookups.sites.find((s) => s.id === id)?.name ?? null,
    [lookups],
  );

  const openBuilder = () => {
    // Start from what filters the list now: the saved filter's or the applied conditions.
    if (!builderOpen) {
      const source = savedFilter.data?.conditions ?? applied;
      if (source) setRoot(fromConditions(source));
    }
    setBuilderOpen((o) => !o);
  };

  const apply = () => {
    setTried(true);
    if (!state.conditions) return;
    set({ conditions: JSON.stringify(state.conditions), filterId: '' });
    setBuilderOpen(false);
  };

  const clearFilters = () => {
    set({ conditions: '', filterId: '' });
    setRoot(newGroup());
    setTried(false);
  };

  const onSort = (key: SortKey) => {
    if (key === url.sort) set({ order: url.order === 'asc' ? 'desc' : 'asc' });
    else
      set({
        sort: key,
        order: key === 'lastSeenAt' || key === 'cpuPercent' || key === 'enrolledAt' ? 'desc' : 'asc',
      });
  };

  const filtered = Boolean(url.q || url.status || url.orgId || url.filterId || applied);
  const demo = sim.status?.available === true;
  const activeConditions = savedFilter.data?.conditions ?? applied;

  return (
    <div className="page dv-page adm">
      <PageHeader
        title="Devices"
        sub={
          list.loading
            ? 'Enrolled devices across your organizations.'
            : `${formatCount(counts[''] ?? list.total)} ${filtered ? 'matching ' : ''}devices${
                spread === null ? '' : ` across ${plural(spread, 'organization')}`
              }.`
        }
        actions={
          <Link to="/filters" className="btn btn-ghost btn-sm" data-testid="devices-saved-filters">
            <Icon name="search" size={14} />
            Saved filters
          </Link>
        }
      />

      {demo && sim.status ? (
        <SimulatorPanel status={sim.status} orgs={lookups.orgs} onChanged={sim.refresh} />
      ) : null}

      <ListToolbar
        className="dv-toolbar"
        query={q}
        onQuery={setQ}
        placeholder="Search hostname, name or user"
        searchTestId="device-search"
        filters={
          <>
            <div className="ui-chips" role="radiogroup" aria-label="Status">
              {STATUS_CHIPS.map((c) => (
                <button
                  key={c.value}
                  type="button"
                  role="radio"
                  aria-checked={url.status === c.value}
                  className={`ui-chip${url.status === c.value ? ' on' : ''}`}
                  onClick={() => set({ status: c.value })}
                  data-testid={`device-status-${c.value || 'all'}`}
                >
                  {c.value ? (
                    <span className={`dv-dot tone-${c.value === 'online' ? 'ok' : 'muted'}`} />
                  ) : null}
                  {c.label}
                  <span className="ui-chip-count">
                    {counts[c.value] === undefined ? '' : formatCount(counts[c.value]!)}
                  </span>
                </button>
              ))}
            </div>
            {lookups.orgs.length > 1 ? (
              <ChoiceSelect
                value={url.orgId}
                onChange={(orgId) => set({ orgId })}
                ariaLabel="Organization"
                emptyLabel="All organizations"
                options={nameChoices(lookups.orgs)}
                testId="device-org-filter"
              />
            ) : null}
          </>
        }
        action={
          <>
            <select
              value={`${url.sort}:${url.order}`}
              onChange={(e) => {
                const [sort, order] = e.target.value.split(':') as [SortKey, 'asc' | 'desc'];
                set({ sort, order });
              }}
              aria-label="Sort by"
              data-testid="device-sort"
            >
              {(Object.keys(SORT_LABELS) as SortKey[]).flatMap((k) => [
                <option key={`${k}:asc`} value={`${k}:asc`}>
                  {SORT_LABELS[k]} ↑
                </option>,
                <option key={`${k}:desc`} value={`${k}:desc`}>
                  {SORT_LABELS[k]} ↓
                </option>,
              ])}
            </select>
            <SmallButton
              tone={builderOpen ? 'primary' : 'secondary'}
              icon="plus"
              iconSize={13}
              onClick={openBuilder}
              aria-expanded={builderOpen}
              testId="device-filter-toggle"
            >
              Filter
              {activeConditions ? (
                <span className="dv-badge">{countConditions(fromConditions(activeConditions))}</span>
              ) : null}
            </SmallButton>
          </>
        }
      />

      {url.filterId || applied ? (
        <div className="alert alert-accent alert-bar dv-active" data-testid="device-active-filter">
          <Icon name="search" size={14} />
          {url.filterId ? (
            <span>
              Saved filter{' '}
              <Link to={`/filters/${url.filterId}`} className="dv-active-name">
                {savedFilter.data?.name ?? (savedFilter.error ? 'unavailable' : '…')}
              </Link>
            </span>
          ) : (
            <span>Conditions</span>
          )}
          {activeConditions ? (
            <span className="dv-active-summary" title={summarize(activeConditions, names)}>
              {summarize(activeConditions, names)}
            </span>
          ) : null}
          <span className="fb-grow" />
          {!builderOpen ? (
            <SmallButton tone="ghost" onClick={openBuilder}>
              Edit
            </SmallButton>
          ) : null}
          <SmallButton
            tone="ghost"
            icon="close"
            iconSize={13}
            onClick={clearFilters}
            testId="device-filter-clear"
          >
            Clear
          </SmallButton>
        </div>
      ) : null}

      {savedNotice ? (
        <div className="alert alert-success alert-bar dv-active" role="status" data-testid="filter-saved">
          <Icon name="check" size={14} />
          <span>
            Saved as <Link to={`/filters/${savedNotice.id}`}>{savedNotice.name}</Link>.
          </span>
          <span className="fb-grow" />
          <SmallButton
            tone="ghost"
            icon="close"
            iconSize={13}
            onClick={() => setSavedNotice(null)}
            aria-label="Dismiss"
          />
        </div>
      ) : null}

      {builderOpen ? (
        <div className="dv-builder" data-testid="filter-builder">
          <FilterPanel
            root={root}
            onChange={setRoot}
            lookups={lookups}
            showIncomplete={tried}
            actions={({ refused }) => (
              <>
                <SmallButton
                  tone="primary"
                  onClick={apply}
                  disabled={refused}
                  title={refused ? 'The server refused a condition: fix it first' : undefined}
                  testId="filter-apply"
                >
                  Apply to list
                </SmallButton>
                <SmallButton
                  tone="secondary"
                  onClick={() => {
                    setTried(true);
                    if (state.conditions) saving.open(true);
                  }}
                  disabled={refused}
                  testId="filter-save"
                >
                  Save as filter…
                </SmallButton>
                <SmallButton
                  tone="ghost"
                  onClick={() => {
                    setRoot(newGroup());
                    setTried(false);
                  }}
                  testId="filter-reset"
                >
                  Start over
                </SmallButton>
              </>
            )}
          />
        </div>
      ) : null}

      <PagedListStates
        list={list}
        loading="Loading devices…"
        forbidden={DEVICES_FORBIDDEN}
        empty={
          filtered ? (
            <EmptyState
              icon="search"
              title="No device matches"
              testId="devices-no-match"
              action={
                <SmallButton
                  tone="secondary"
                  onClick={() => {
                    setQ('');
                    set({ q: '', status: '', orgId: '', conditions: '', filterId: '' });
                  }}
                >
                  Clear search and filters
                </SmallButton>
              }
            >
              Nothing matches the search, status and filters above.
            </EmptyState>
          ) : (
            <EmptyState icon="devices" title="No devices yet" testId="devices-empty">
              Devices appear here as soon as their agent enrolls with an{' '}
              <Link to="/keys/enrollment">enrollment key</Link>.
              {demo
                ? ' On this demo server you can also start simulated agents with the simulator above.'
                : ''}
            </EmptyState>
          )
        }
      >
        <DeviceTable
          list={list}
          orgName={orgName}
          sort={url.sort}
          order={url.order}
          onSort={onSort}
          resetKey={JSON.stringify(query)}
        />
        <div className="dv-foot muted small" data-testid="device-count">
          {list.rows.length < list.total
            ? `${formatCount(list.rows.length)} of ${formatCount(list.total)} loaded · scroll for more`
            : `${formatCount(list.total)} ${list.total === 1 ? 'device' : 'devices'}`}
          {list.error ? <span className="tone-bad"> · refresh failed, showing the last answer</span> : null}
        </div>
      </PagedListStates>

      <SaveFilterDialog
        key={saving.value ? 'open' : 'closed'}
        open={saving.value !== null}
        conditions={state.conditions}
        lookups={lookups}
        defaultOrgId={url.orgId || (lookups.orgs.length === 1 ? lookups.orgs[0]?.id : undefined)}
        {...saving.props((f: SavedFilter) => {
          setSavedNotice(f);
          set({ filterId: f.id, conditions: '' });
          setBuilderOpen(false);
        })}
      />
    </div>
  );
}
