import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import { transaction } from '../../db/after-commit';
import { hasWebhookNamed, insertWebhook } from './store';

// The demo's example webhook (issue 12; `serve --demo`): paused, so a training room sees the screens filled in
// without the server sending anything anywhere. Its URL is a reserved example domain (RFC 2606).

const EXAMPLE_NAME = 'Example: PSA ticketing';

export function seedExampleWebhook(ctx: Pick<AppContext, 'db' | 'secretBox'>, orgId: string): void {
  if (hasWebhookNamed(ctx.db, orgId, EXAMPLE_NAME)) return;
  const now = new Date().toISOString();
  transaction(ctx.db, () =>
    insertWebhook(ctx.db, {
      id: randomUUID(),
      org_id: orgId,
      name: EXAMPLE_NAME,
      url: 'https://psa.example.com/hooks/gatehouse',
      secret_sealed: ctx.secretBox.seal('demo-signing-secret'),
      events: JSON.stringify(['elevation.approved', 'elevation.denied', 'device.offline']),
      headers: JSON.stringify([{ key: 'X-Demo', value: 'northwind' }]),
      status: 'paused',
      retry_policy: null,
      success_count: 0,
      failure_count: 0,
      last_delivery_at: null,
      last_success_at: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    }),
  );
}
