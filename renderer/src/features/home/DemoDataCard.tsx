import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { DemoSeedResponse } from '../../../../server/contract';
import { homeApi, homeKeys } from './api';
import { ActionError } from '../../ui/ActionError';
import { Button } from '../../ui/Button';
import { Card, CopyButton, Facts } from '../../ui/basics';
import { copyText } from '../../lib/clipboard';

// First-run convenience for platform administrators (DESIGN §2: setup offers demo data): while the install has
// no partner yet, offer the demo tenant. The technicians' password and the fleet key are shown once.

export function DemoDataCard() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<DemoSeedResponse | null>(null);

  // Offered only while the install has no partner; a failed count hides the card.
  const partners = useQuery({ queryKey: homeKeys.anyPartner, queryFn: homeApi.partnerCount });
  const visible = partners.data === 0;

  if (!visible && !result) return null;

  const load = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await homeApi.seedDemo());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const command = result
    ? `npm run agent-sim -- --server ${window.location.origin} --enrollment-key ${result.enrollmentKey.key} --count 25`
    : '';

  return (
    <Card title="Demo data" icon="tenants" testId="demo-card">
      {result ? (
        <div data-testid="demo-result">
          <p>
            Northwind IT Services is ready: four customer organizations, their sites and five technicians. The
            password and the enrollment key below are shown only now.
          </p>
          <Facts
            rows={[
              [
                'Technicians',
                <ul className="demo-people" data-testid="demo-technicians">
                  {result.technicians.map((t) => (
                    <li key={t.email}>
                      <span className="mono">{t.email}</span> <span className="muted">{t.role}</span>
                    </li>
                  ))}
                </ul>,
              ],
              [
                'Their password',
                result.password ? (
                  <span className="mono">
                    {result.password}{' '}
                    <CopyButton onCopy={() => copyText(result.password ?? '')} label="Copy" />
                  </span>
                ) : (
                  'unchanged'
                ),
                'demo-password',
              ],
              ['Simulated fleet', <span className="mono demo-command">{command}</span>, 'demo-command'],
            ]}
          />
          <CopyButton onCopy={() => copyText(command)} label="Copy simulator command" />
        </div>
      ) : (
        <>
          <p>
            This install has no partners yet. Load a demo MSP with customers, sites and technicians to explore
            the console or run a training room. You can delete it later from Tenants.
          </p>
          <ActionError error={error} />
          <Button
            tone="primary"
            busy={busy}
            busyLabel="Loading…"
            onClick={() => void load()}
            testId="demo-load"
          >
            Load demo tenant
          </Button>
        </>
      )}
    </Card>
  );
}
