import { useState, type FormEvent } from 'react';
import type { SsoDomain } from '../../../../server/contract';
import { useAsyncAction, type AsyncAction } from '../../lib/action';
import { copyText } from '../../lib/clipboard';
import { formatDateTime } from '../../lib/format';
import { queryClient } from '../../lib/query';
import {
  ActionError,
  Button,
  Card,
  CopyButton,
  LoadState,
  SmallButton,
  StatusPill,
  TextField,
} from '../../ui';
import { ssoApi, ssoKeys, useDomains } from './api';

// Email domains the organization proves it owns with a DNS TXT record (spec 1 rules 12 and 14): a proven domain
// lets the sign-in page offer the provider from the email alone, and lets first sign-ins without the IdP's
// email_verified claim through. Each claim shows the exact record to publish and a Check button.

const FORBIDDEN = {
  title: 'Email domains are not available to you',
  text: 'Reading them needs the users:read permission for this organization.',
};

export function DomainsCard({ orgId, canWrite }: { orgId: string; canWrite: boolean }) {
  const domains = useDomains(orgId);
  const [domain, setDomain] = useState('');
  const add = useAsyncAction();
  const rows = domains.data?.data;

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    if (!domain.trim()) return;
    void add.run(async () => {
      await ssoApi.addDomain(orgId, domain.trim().toLowerCase());
      setDomain('');
      await queryClient.invalidateQueries({ queryKey: ssoKeys.domains(orgId) });
    });
  };

  return (
    <Card title="Email domains" icon="mail" testId="sso-domains">
      <p className="muted">
        Prove the organization owns its email domain, and the sign-in page offers single sign-on as soon as
        someone types an address there.
      </p>
      {!rows ? (
        <LoadState
          of={{ error: domains.error, reload: domains.reload }}
          loading="Loading domains…"
          forbidden={FORBIDDEN}
        />
      ) : (
        <div className="sso-domains">
          {rows.map((d) => (
            <DomainRow key={d.id} domain={d} orgId={orgId} canWrite={canWrite} />
          ))}
        </div>
      )}
      {canWrite ? (
        <form className="form-inline" onSubmit={onAdd} noValidate>
          <TextField
            id="sso-domain-input"
            label="Add a domain"
            value={domain}
            onChange={setDomain}
            placeholder="contoso.com"
            spellCheck={false}
          />
          <Button
            tone="secondary"
            submit
            busy={add.busy}
            busyLabel="Adding…"
            icon="plus"
            testId="sso-domain-add"
          >
            Add domain
          </Button>
        </form>
      ) : null}
      <ActionError error={add.error} />
    </Card>
  );
}

function DomainRow({ domain, orgId, canWrite }: { domain: SsoDomain; orgId: string; canWrite: boolean }) {
  const check = useAsyncAction();
  const remove = useAsyncAction();
  // Both buttons call the server about this domain, then reload the list so the row shows the outcome.
  const thenRefresh = (action: AsyncAction, write: (domainId: string) => Promise<unknown>) => () =>
    void action.run(async () => {
      await write(domain.id);
      await queryClient.invalidateQueries({ queryKey: ssoKeys.domains(orgId) });
    });
  const verified = domain.verifiedAt !== null;
  return (
    <div className="sso-domain" data-testid="sso-domain" data-domain={domain.domain}>
      <div className="sso-domain-head">
        <strong>{domain.domain}</strong>
        {verified ? (
          <StatusPill tone="ok" testId="sso-domain-status">
            Verified {formatDateTime(domain.verifiedAt ?? '')}
          </StatusPill>
        ) : (
          <StatusPill tone="warn" testId="sso-domain-status">
            Waiting for DNS
          </StatusPill>
        )}
        <span className="sso-grow" />
        {canWrite && !verified ? (
          <SmallButton
            tone="primary"
            icon="refresh"
            disabled={check.busy}
            onClick={thenRefresh(check, ssoApi.verifyDomain)}
            testId="sso-domain-check"
          >
            {check.busy ? 'Checking…' : 'Check'}
          </SmallButton>
        ) : null}
        {canWrite ? (
          <SmallButton
            tone="ghost"
            icon="trash"
            aria-label={`Remove ${domain.domain}`}
            disabled={remove.busy}
            onClick={thenRefresh(remove, ssoApi.removeDomain)}
            testId="sso-domain-remove"
          />
        ) : null}
      </div>
      {!verified ? (
        <div className="sso-txt" data-testid="sso-domain-txt">
          <span className="muted small">Publish this TXT record at your DNS host, then press Check:</span>
          <dl className="sso-txt-record">
            <dt>Name</dt>
            <CopyableValue value={domain.txtName} testId="sso-txt-name" />
            <dt>Type</dt>
            <dd className="mono">TXT</dd>
            <dt>Value</dt>
            <CopyableValue value={domain.txtValue} testId="sso-txt-value" />
          </dl>
        </div>
      ) : null}
      <ActionError error={check.error} testId="sso-domain-error" />
      <ActionError error={remove.error} />
    </div>
  );
}

/** A value the administrator pastes into the DNS host, with its copy button. */
function CopyableValue({ value, testId }: { value: string; testId: string }) {
  return (
    <dd className="sso-copy-line">
      <code className="mono" data-testid={testId}>
        {value}
      </code>
      <CopyButton onCopy={() => copyText(value)} className="btn btn-ghost btn-sm" />
    </dd>
  );
}
