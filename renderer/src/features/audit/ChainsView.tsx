import { useState } from 'react';
import type {
  AuditChainStatus,
  AuditChainVerification,
  AuditVerifyResponse,
} from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { useOrganizations } from '../../lib/directory';
import { formatCount, formatDateTime, plural, relativeTo } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { loadStateOf, queryClient } from '../../lib/query';
import { ActionError, EmptyState, LoadState, SmallButton, StatusPill } from '../../ui';
import { auditApi, auditKeys, useChainStatus } from './api';
import { VerifyResult } from './VerifyResult';

// /audit/chains: every hash chain in scope (one per organization, the partner's own, the platform's), with its
// last verification, and "Verify now" that walks the chain again and shows what it checked and, when a row was
// edited or removed, which one.

const FORBIDDEN = {
  title: 'Chain status is not available to you',
  text: 'Reading the audit chains needs the audit:read permission.',
};

function chainName(c: AuditChainStatus): string {
  if (c.orgId) return c.name ?? 'Organization';
  if (c.partnerId) return `${c.name ?? 'Partner'} (partner)`;
  return 'Platform';
}

function LastResult({ chain, now }: { chain: AuditChainStatus; now: number }) {
  if (!chain.lastResult || !chain.lastVerifiedAt)
    return (
      <StatusPill tone="muted" testId="chain-last">
        Never verified
      </StatusPill>
    );
  const when = relativeTo(Date.parse(chain.lastVerifiedAt), now);
  return (
    <span className="au-chain-last" title={formatDateTime(chain.lastVerifiedAt)}>
      <StatusPill tone={chain.lastResult.valid ? 'ok' : 'bad'} testId="chain-last">
        {chain.lastResult.valid ? 'Intact' : 'Tampered'}
      </StatusPill>
      <span className="muted small">
        {when} · {plural(chain.lastResult.checked, 'row')}
      </span>
    </span>
  );
}

export function ChainsView() {
  const chains = useChainStatus();
  const { orgs } = useOrganizations();
  const now = useNow(15_000);
  const verify = useAsyncAction();
  const [busyChain, setBusyChain] = useState<string | null>(null);
  // The latest result per chain key, and the last "Verify all" (its totals).
  const [results, setResults] = useState<Record<string, AuditChainVerification>>({});
  const [lastRun, setLastRun] = useState<AuditVerifyResponse | null>(null);

  const run = (chain: AuditChainStatus | null) =>
    void verify.run(async () => {
      setBusyChain(chain?.chain ?? '*');
      try {
        // An organization's chain is verified alone; the partner and platform chains come with the whole scope.
        const res = await auditApi.verify(chain?.orgId ?? null);
        setResults((r) => ({ ...r, ...Object.fromEntries(res.chains.map((c) => [c.chain, c])) }));
        // The totals line is for a run over every chain; one chain's result stands in its own card.
        setLastRun(chain ? null : res);
        await queryClient.invalidateQueries({ queryKey: auditKeys.chains });
      } finally {
        setBusyChain(null);
      }
    });

  /** Verifies one chain, or (null) every chain in scope; says so while its run is on. */
  const verifyButton = (chain: AuditChainStatus | null) => (
    <SmallButton
      tone="secondary"
      icon={chain ? 'check' : 'refresh'}
      onClick={() => run(chain)}
      disabled={verify.busy}
      testId={chain ? 'chain-verify' : 'chains-verify-all'}
    >
      {busyChain === (chain?.chain ?? '*') ? 'Verifying…' : chain ? 'Verify now' : 'Verify all'}
    </SmallButton>
  );

  const list = chains.data?.chains;
  if (!list)
    return <LoadState of={loadStateOf(chains)} loading="Loading the audit chains…" forbidden={FORBIDDEN} />;
  // Organizations in scope that have recorded nothing yet have no chain: named too, so none seems missing.
  const chained = new Set(list.map((c) => c.orgId));
  const unchained = orgs.filter((o) => !chained.has(o.id));
  if (list.length === 0 && unchained.length === 0)
    return (
      <EmptyState icon="audit" title="No audit chains yet" testId="chains-empty">
        A chain starts with the first entry an organization records.
      </EmptyState>
    );

  return (
    <div className="au-chains" data-testid="audit-chains">
      <div className="adm-toolbar">
        <span className="muted small">
          Each entry's checksum covers its content and the checksum before it, so an edit or a removal
          anywhere breaks the chain from that row on.
        </span>
        <span className="grow" />
        {verifyButton(null)}
      </div>
      <ActionError error={verify.error} />
      {lastRun && busyChain === null ? (
        <div
          className={`au-run-summary ${lastRun.valid ? 'tone-ok' : 'tone-bad'}`}
          data-testid="verify-summary"
        >
          Last run {formatDateTime(lastRun.checkedAt)}: {plural(lastRun.chains.length, 'chain')},{' '}
          {plural(lastRun.rowsChecked, 'row')} in {formatCount(lastRun.durationMs)} ms —{' '}
          {lastRun.valid ? 'every chain intact.' : 'tampering found.'}
        </div>
      ) : null}
      <ul className="au-chain-list">
        {list.map((c) => {
          const result = results[c.chain];
          return (
            <li
              key={c.chain}
              className={`card au-chain${result && !result.valid ? ' is-bad' : ''}`}
              data-testid="chain-row"
              data-chain={c.chain}
              data-name={chainName(c)}
            >
              <div className="au-chain-head">
                <div className="au-chain-name">
                  <strong>{chainName(c)}</strong>
                  <span className="muted small">
                    {plural(c.entryCount, 'entry', 'entries')}
                    {c.anchor
                      ? ` · starts at the retention cut of ${formatDateTime(c.anchor.cutAt, { seconds: false })} (${plural(c.anchor.rowsRemoved, 'row')} removed)`
                      : ' · from its first entry'}
                  </span>
                </div>
                <LastResult chain={c} now={now} />
                {verifyButton(c)}
              </div>
              {result ? <VerifyResult result={result} /> : null}
            </li>
          );
        })}
        {unchained.map((o) => (
          <li key={o.id} className="card au-chain au-chain-none" data-testid="chain-none" data-name={o.name}>
            <div className="au-chain-head">
              <div className="au-chain-name">
                <strong>{o.name}</strong>
                <span className="muted small">No entries yet: its chain starts with the first one.</span>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
