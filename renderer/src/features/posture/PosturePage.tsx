import { useState } from 'react';
import type { PostureSummary } from '../../../../server/contract';
import { formatCount, plural } from '../../lib/format';
import { useDocumentTitle } from '../../lib/hooks';
import { AdminPage, AdminTable, EmptyState, LoadState, Segmented } from '../../ui';
import { Card } from '../../ui/basics';
import { usePostureSummary, type PostureDrill } from './api';
import { PostureDevicesPanel } from './PostureDevicesPanel';
import './posture.css';

// /posture — management posture (spec 3): which third-party management products (RMM, remote access) the agents
// report, per organization and status, with the devices that never reported or stopped reporting; a count opens
// the devices behind it.

const WINDOWS: ReadonlyArray<readonly ['7' | '30' | '90', string]> = [
  ['7', '7 days'],
  ['30', '30 days'],
  ['90', '90 days'],
];

type Org = PostureSummary['data']['orgs'][number];

function OrgCard({ org, onDrill }: { org: Org; onDrill: (drill: PostureDrill) => void }) {
  return (
    <Card title={org.orgName} icon="tenants" testId="posture-org">
      {org.products.length === 0 ? (
        <p className="muted pst-none">No device of this organization reports a management product.</p>
      ) : (
        <AdminTable bare testId="posture-products" columns={['Product', 'Status', 'Devices']}>
          {org.products.map((p) => (
            <tr key={`${p.product}:${p.status}`} data-testid="posture-product-row">
              <td className="pst-product">{p.product}</td>
              <td>
                <span className={`pst-status pst-${p.status.replace(/[^a-z_]/gi, '')}`}>{p.status}</span>
              </td>
              <td>
                <button
                  type="button"
                  className="pst-count"
                  onClick={() => onDrill({ orgId: org.orgId, product: p.product, status: p.status })}
                  title={`Show the ${plural(p.deviceCount, 'device')}`}
                  data-testid="posture-count"
                >
                  {formatCount(p.deviceCount)}
                </button>
              </td>
              <td />
            </tr>
          ))}
        </AdminTable>
      )}
    </Card>
  );
}

export function PosturePage() {
  useDocumentTitle('Management posture');
  const [windowDays, setWindowDays] = useState<'7' | '30' | '90'>('7');
  const [drill, setDrill] = useState<PostureDrill | null>(null);
  const summary = usePostureSummary(Number(windowDays));
  const data = summary.data?.data;

  return (
    <AdminPage
      className="pst"
      testId="posture-page"
      head={{
        title: 'Management posture',
        sub: 'Third-party management and remote-access products the agents find on their devices',
      }}
    >
      <div className="pst-toolbar">
        <Segmented
          label="Stale after"
          options={WINDOWS}
          value={windowDays}
          onChange={setWindowDays}
          testId="posture-window"
          small
        />
        {data ? (
          <span className="ui-figures pst-totals" data-testid="posture-totals">
            <span>
              <strong>{formatCount(data.totals.neverScanned)}</strong> never reported
            </span>
            <span>
              <strong>{formatCount(data.totals.stale)}</strong> not reported for {data.stalenessDays} days
            </span>
          </span>
        ) : null}
      </div>
      {drill ? (
        <PostureDevicesPanel key={JSON.stringify(drill)} drill={drill} onClose={() => setDrill(null)} />
      ) : null}
      {!data ? (
        <LoadState
          of={summary}
          loading="Loading posture…"
          forbidden={{
            title: 'Posture is not available to you',
            text: 'Reading devices needs devices:read.',
          }}
        />
      ) : data.orgs.length === 0 ? (
        <EmptyState icon="devices" title="No devices yet" testId="posture-empty">
          Posture appears once agents are enrolled and report.
        </EmptyState>
      ) : (
        <div className="pst-orgs">
          {data.orgs.map((org) => (
            <OrgCard key={org.orgId} org={org} onDrill={setDrill} />
          ))}
        </div>
      )}
    </AdminPage>
  );
}
