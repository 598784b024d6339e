import { useMemo, useState, type FormEvent } from 'react';
import type { SavedFilter } from '../../../../server/contract';
import { ActionError } from '../../ui/ActionError';
import { ConfirmTarget } from '../../ui/DialogActions';
import { DeleteButton, SmallButton } from '../../ui/SmallButton';
import { useAsyncAction } from '../../lib/action';
import { useDocumentTitle } from '../../lib/hooks';
import { Link, navigate, usePathname } from '../../lib/router';
import { useSession } from '../../lib/session';
import {
  AdminTable,
  ButtonLink,
  ListCount,
  ListEmpty,
  ListToolbar,
  LoadFailure,
  LoadingBlock,
  LoadState,
  PageHeader,
  rowAction,
  RowActions,
  type Forbidden,
  type NotFound,
} from '../../ui';
import { formatDate, plural } from '../../lib/format';

import { useTarget } from '../../lib/hooks';
import { FilterPanel, useFilterState } from './FilterPanel';
import { fromConditions, newGroup, toConditions, type GroupNode } from './model';
import { nameOf, useLookups, type Lookups } from '../../lib/directory';
import { FilterMetaFields, useFilterMeta } from './FilterMeta';
import { summarize } from './summary';
import { useDebounced } from '../../lib/hooks';
import './filters.css';
import { filtersApi, useFilterList, useSavedFilter } from './api';

// /filters: saved filters across the organizations in scope; /filters/new and /filters/:id: one filter in the
// builder with its live preview, "Show devices", save and delete.

export function FiltersPage() {
  const pathname = usePathname();
  const rest = pathname.slice('/filters'.length).replace(/^\/+/, '');
  const lookups = useLookups();
  if (rest === 'new') return <FilterEditor key="new" filterId={null} lookups={lookups} />;
  if (rest) return <FilterEditor key={rest} filterId={decodeURIComponent(rest)} lookups={lookups} />;
  return <FilterListView lookups={lookups} />;
}

export function devicesLinkFor(filterId: string): string {
  return `/devices?filterId=${encodeURIComponent(filterId)}`;
}

function useNames(lookups: Lookups) {
  return useMemo(() => {
    const names = new Map<string, string>();
    for (const o of lookups.orgs) names.set(o.id, o.name);
    for (const s of lookups.sites) names.set(s.id, s.name);
    return (id: string) => names.get(id) ?? null;
  }, [lookups]);
}

function FilterListView({ lookups }: { lookups: Lookups }) {
  useDocumentTitle('Saved filters');
  const [search, setSearch] = useState('');
  const query = useDebounced(search, 250);
  const list = useFilterList(query.trim());
  const deleting = useTarget<SavedFilter>();
  const names = useNames(lookups);
  const rows = list.data?.data ?? [];

  const remove = async () => {
    if (!deleting.target) return;
    await filtersApi.remove(deleting.target.id);
    deleting.close();
    list.reload();
  };

  return (
    <div className="page sf-page adm">
      <PageHeader
        title="Saved filters"
        sub="Reusable device filters. Open one to see its conditions and how many devices match right now."
        actions={
          <ButtonLink to="/filters/new" tone="primary" icon="plus" iconSize={14} small testId="filter-new">
            New filter
          </ButtonLink>
        }
      />
      <ListToolbar
        query={search}
        onQuery={setSearch}
        placeholder="Search name or description"
        searchTestId="filters-search"
        count={
          list.data ? <ListCount testId="filters-count">{plural(list.data.total, 'filter')}</ListCount> : null
        }
      />
      {list.error && !list.data ? (
        <LoadFailure
          error={list.error}
          onRetry={list.reload}
          forbiddenTitle="Saved filters are not available to you"
          forbiddenText="Your account cannot read saved filters."
        />
      ) : !list.data ? (
        <LoadingBlock label="Loading saved filters…" />
      ) : rows.length === 0 ? (
        <ListEmpty
          filtered={Boolean(query)}
          noMatch={{ title: 'No filter matches this search', text: 'Try another word, or clear the search.' }}
          icon="search"
          title="No saved filters yet"
          testId="filters-empty"
          action={
            <ButtonLink to="/filters/new" tone="secondary" small>
              Build a filter
            </ButtonLink>
          }
        >
          Build a filter on the device list (Filter → Save as filter) or here, and reuse it whenever you need
          that set of devices.
        </ListEmpty>
      ) : (
        <AdminTable
          className="sf-table"
          testId="filter-table"
          columns={['Name', 'Organization', 'Conditions', 'Updated']}
        >
          {rows.map((f) => (
            <tr
              key={f.id}
              className="clickable"
              onClick={() => navigate(`/filters/${f.id}`)}
              data-testid="filter-row"
            >
              <td>
                <div className="adm-cell-main">
                  <Link to={`/filters/${f.id}`} className="sf-name" onClick={(e) => e.stopPropagation()}>
                    {f.name}
                  </Link>
                  {f.description ? <span className="sf-desc">{f.description}</span> : null}
                </div>
              </td>
              <td className="nowrap">{nameOf(lookups.orgs, f.orgId) ?? <span className="muted">—</span>}</td>
              <td>
                <div className="sf-summary" title={summarize(f.conditions, names)}>
                  {summarize(f.conditions, names)}
                </div>
              </td>
              <td className="nowrap muted">{formatDate(f.updatedAt)}</td>
              <RowActions
                name={f.name}
                testId="filter-row-menu"
                items={[
                  {
                    label: 'Show devices',
                    icon: 'devices',
                    onSelect: () => navigate(devicesLinkFor(f.id)),
                    testId: 'filter-row-devices',
                  },
                  rowAction.edit('filter-row-edit', () => navigate(`/filters/${f.id}`)),
                  rowAction.remove('filter-row-delete', () => deleting.open(f)),
                ]}
              />
            </tr>
          ))}
        </AdminTable>
      )}
      <ConfirmTarget
        of={deleting}
        title="Delete saved filter"
        confirmLabel="Delete filter"
        testId="filter-delete-dialog"
        onConfirm={remove}
      >
        <p>
          Delete <strong>{deleting.target?.name}</strong>? Everyone in its organization loses it. Devices are
          not affected.
        </p>
      </ConfirmTarget>
    </div>
  );
}

const FILTER_FORBIDDEN: Forbidden = {
  title: 'This filter is not available to you',
  text: 'It belongs to an organization outside your access.',
};
const FILTER_NOT_FOUND: NotFound = {
  icon: 'search',
  title: 'No such filter',
  text: 'It was deleted, or it belongs to an organization outside your access.',
  testId: 'filter-not-found',
};

function FilterEditor({ filterId, lookups }: { filterId: string | null; lookups: Lookups }) {
  const loaded = useSavedFilter(filterId);
  if (filterId && loaded.error && !loaded.data)
    return (
      <div className="page sf-page adm">
        <PageHeader title="Saved filter" back={{ to: '/filters', label: 'Saved filters' }} />
        <LoadState of={loaded} forbidden={FILTER_FORBIDDEN} notFound={FILTER_NOT_FOUND} />
      </div>
    );
  if (filterId && !loaded.data)
    return (
      <div className="page sf-page adm">
        <PageHeader title="Saved filter" back={{ to: '/filters', label: 'Saved filters' }} />
        <LoadingBlock label="Loading filter…" />
      </div>
    );
  return <EditorForm key={loaded.data?.updatedAt ?? 'new'} filter={loaded.data ?? null} lookups={lookups} />;
}

function EditorForm({ filter, lookups }: { filter: SavedFilter | null; lookups: Lookups }) {
  useDocumentTitle(filter ? filter.name : 'New filter');
  const scope = useSession((s) => s.user?.scope ?? 'organization');
  const needsOrg = !filter && scope !== 'organization';
  const [root, setRoot] = useState<GroupNode>(() =>
    filter ? fromConditions(filter.conditions) : newGroup(),
  );
  const [savedAt, setSavedAt] = useState<SavedFilter | null>(filter);
  const confirmDelete = useTarget<true>();
  const save = useAsyncAction();
  const meta = useFilterMeta({
    name: filter?.name,
    description: filter?.description ?? '',
    needsOrg,
    error: save.error,
  });
  const state = useFilterState(root);

  const savedJson = savedAt ? JSON.stringify(savedAt.conditions) : null;
  const currentJson = JSON.stringify(toConditions(root));
  const dirty =
    !savedAt ||
    savedJson !== currentJson ||
    meta.name.trim() !== savedAt.name ||
    (meta.description.trim() || null) !== (savedAt.description ?? null);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const conditions = state.conditions;
    if (!meta.ready(conditions)) return;
    void save.run(async () => {
      const body = meta.body(conditions);
      if (savedAt) {
        const updated = await filtersApi.update(savedAt.id, body);
        setSavedAt(updated);
      } else {
        const created = await filtersApi.create(body);
        navigate(`/filters/${created.id}`, { replace: true });
      }
    });
  };

  const showDevices = () => {
    if (savedAt && !dirty) navigate(devicesLinkFor(savedAt.id));
    else if (state.conditions)
      navigate(`/devices?conditions=${encodeURIComponent(JSON.stringify(state.conditions))}`);
    else meta.setTried(true);
  };

  const remove = async () => {
    if (!savedAt) return;
    await filtersApi.remove(savedAt.id);
    navigate('/filters', { replace: true });
  };

  return (
    <div className="page sf-page adm sf-editor">
      <PageHeader
        title={filter ? filter.name : 'New filter'}
        back={{ to: '/filters', label: 'Saved filters' }}
        sub={
          filter ? (
            <>
              {nameOf(lookups.orgs, filter.orgId) ?? 'Organization'} · updated{' '}
              {formatDate(savedAt?.updatedAt ?? filter.updatedAt)}
              {dirty ? <span className="sf-dirty"> · unsaved changes</span> : null}
            </>
          ) : (
            'Describe a set of devices with conditions; the preview counts matches as you go.'
          )
        }
        actions={
          savedAt ? <DeleteButton onClick={() => confirmDelete.open(true)} testId="filter-delete" /> : null
        }
      />
      <form className="sf-card sf-meta" onSubmit={submit} noValidate id="filter-edit-form">
        <FilterMetaFields
          idPrefix="filter"
          meta={meta}
          needsOrg={needsOrg}
          lookups={lookups}
          orgHint="Everyone with access to it can use the filter."
        />
      </form>
      <FilterPanel
        root={root}
        onChange={setRoot}
        lookups={lookups}
        showIncomplete={meta.tried}
        actions={({ refused }) => (
          <>
            <button
              type="submit"
              form="filter-edit-form"
              className="btn btn-primary btn-sm"
              disabled={save.busy || refused || (savedAt !== null && !dirty)}
              data-testid="filter-update"
            >
              {save.busy ? 'Saving…' : savedAt ? (dirty ? 'Save changes' : 'Saved') : 'Create filter'}
            </button>
            <SmallButton tone="secondary" icon="devices" onClick={showDevices} testId="filter-show-devices">
              Show devices
            </SmallButton>
            {savedAt && dirty ? (
              <span className="muted small">Shows the devices for the conditions as edited here.</span>
            ) : null}
          </>
        )}
      />
      <ActionError error={meta.generalError} />
      <ConfirmTarget
        of={confirmDelete}
        title="Delete saved filter"
        confirmLabel="Delete filter"
        testId="filter-delete-dialog"
        onConfirm={remove}
      >
        <p>
          Delete <strong>{savedAt?.name}</strong>? Everyone in its organization loses it. Devices are not
          affected.
        </p>
      </ConfirmTarget>
    </div>
  );
}
