import { useState } from 'react';
import type { SsoProvider, SsoProviderStatus, SsoTestResponse } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { queryClient } from '../../lib/query';
import { ActionError, Alert, Segmented, SmallButton } from '../../ui';
import { ssoApi, ssoKeys } from './api';
import { STATUS_TEXT } from './model';

// Test connection (the discovery document is reachable and every endpoint in it is safe, said plainly) and the
// status switch (spec 1 "SSO provider status": off, testing, on). Shared by the setup's last step and the card.

const STATUSES: SsoProviderStatus[] = ['inactive', 'testing', 'active'];

export function ProviderChecks({
  provider,
  onChanged,
  disabled,
}: {
  provider: SsoProvider;
  /** The provider as the server answered the status change. */
  onChanged?: (provider: SsoProvider) => void;
  disabled?: boolean;
}) {
  const [result, setResult] = useState<SsoTestResponse | null>(null);
  const test = useAsyncAction();
  const status = useAsyncAction();

  const runTest = () =>
    void test.run(async () => {
      setResult(null);
      setResult(await ssoApi.test(provider.id));
    });

  const setStatus = (next: SsoProviderStatus) =>
    void status.run(async () => {
      if (next === provider.status) return;
      const saved = await ssoApi.setStatus(provider.id, next);
      onChanged?.(saved);
      await queryClient.invalidateQueries({ queryKey: ssoKeys.all });
    });

  return (
    <div className="sso-checks">
      <div className="sso-check-row">
        <div>
          <div className="sso-check-title">Connection</div>
          <div className="muted small">
            Reads the issuer&apos;s discovery document and checks every endpoint.
          </div>
        </div>
        <SmallButton
          tone="secondary"
          icon="activity"
          onClick={runTest}
          disabled={disabled || test.busy}
          testId="sso-test"
        >
          {test.busy ? 'Testing…' : 'Test connection'}
        </SmallButton>
      </div>
      {result ? (
        <Alert tone={result.success ? 'success' : 'danger'} testId="sso-test-result">
          {result.success ? (
            <>
              <strong>Connection works.</strong> The sign-in page is at{' '}
              <span className="mono">{result.endpoints?.authorizationUrl}</span>.
            </>
          ) : (
            <>
              <strong>Connection failed.</strong> {result.message}
            </>
          )}
        </Alert>
      ) : null}
      <ActionError error={test.error} />
      <div className="sso-check-row">
        <div>
          <div className="sso-check-title">Status</div>
          <div className="muted small" data-testid="sso-status-hint">
            {STATUS_TEXT[provider.status].hint}
          </div>
        </div>
        <Segmented<SsoProviderStatus>
          label="Status"
          small
          value={provider.status}
          onChange={setStatus}
          testId="sso-status"
          options={STATUSES.map((s) => ({ value: s, label: STATUS_TEXT[s].label }))}
        />
      </div>
      <ActionError error={status.error} testId="sso-status-error" />
    </div>
  );
}
