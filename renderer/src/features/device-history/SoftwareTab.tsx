import { useState } from 'react';
import { useDebounced } from '../../lib/hooks';
import { formatCount, plural } from '../../lib/format';
import { ListEmpty, ListStates, SearchBox, VirtualTable, type VirtualTableSpec } from '../../ui';
import { SOFTWARE_LIMIT, useDeviceSoftware } from './api';
import './device-history.css';

// /devices/:id?tab=software — the programs the agent last reported (GET /software/inventory/:deviceId), searched
// by name or publisher on the server, drawn in a virtualized table so a long inventory scrolls smoothly.

const TABLE: VirtualTableSpec = {
  label: 'Installed software',
  rowHeight: 34,
  className: 'dh-sw-row',
  scrollTestId: 'software-scroll',
  columns: ['Name', 'Version', 'Publisher'].map((label) => ({ id: label, label, className: 'dh-cell' })),
};

const SOFTWARE_FORBIDDEN = {
  title: 'Software is not available to you',
  text: 'Reading devices needs devices:read.',
};

export function SoftwareTab({ deviceId }: { deviceId: string }) {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const software = useDeviceSoftware(deviceId, q);
  const page = software.data;

  return (
    <div className="dh-software" data-testid="device-software">
      <div className="dh-toolbar">
        <SearchBox
          value={search}
          onChange={setSearch}
          placeholder="Search name or publisher"
          testId="software-search"
        />
        {page ? (
          <span className="muted dh-hint" data-testid="software-count">
            {page.pagination.total > page.data.length
              ? `First ${formatCount(page.data.length)} of ${formatCount(page.pagination.total)}: narrow the search`
              : plural(page.pagination.total, 'program')}
          </span>
        ) : null}
      </div>
      <ListStates
        of={software}
        loading="Loading software…"
        forbidden={SOFTWARE_FORBIDDEN}
        empty={
          page?.data.length === 0 ? (
            <ListEmpty
              icon="devices"
              filtered={q !== ''}
              title="No software reported yet"
              noMatch={{
                title: 'Nothing matches',
                text: 'No program of this device has that name or publisher.',
              }}
              testId="software-empty"
            >
              The agent sends its installed programs after enrolling and whenever they change.
            </ListEmpty>
          ) : null
        }
      >
        <VirtualTable
          spec={TABLE}
          list={{ rows: page?.data ?? [], total: Math.min(page?.pagination.total ?? 0, SOFTWARE_LIMIT) }}
          getKey={(s) => s.name}
          resetKey={q}
          renderRow={(s, row) => (
            <div {...row} className="dh-sw-row ui-grid-row" data-testid="software-row">
              <div role="cell" className="dh-cell dh-strong" title={s.name}>
                {s.name}
              </div>
              <div role="cell" className="dh-cell mono">
                {s.version ?? <span className="muted">—</span>}
              </div>
              <div role="cell" className="dh-cell" title={s.publisher ?? undefined}>
                {s.publisher ?? <span className="muted">—</span>}
              </div>
            </div>
          )}
        />
      </ListStates>
    </div>
  );
}
