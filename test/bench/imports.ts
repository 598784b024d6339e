import { randomUUID } from 'node:crypto';
import type { RunningServer } from '../../server/index';
import { membershipOf, userByEmail } from '../../server/modules/users';
import { measure, type Result } from './measure';

// Estate import over real HTTP: preview and commit of 1000-row files (500 organizations with two sites each,
// linked by external id) as a demo partner administrator with an MFA session, against a raw SQLite insert of the
// same organizations and sites in one transaction, in the same run.

const ROWS = 1000;
const RUNS = 5;
const PARTNER_ADMIN = 'riley.chen@northwind.demo';

function file(batch: string) {
  return Array.from({ length: ROWS }, (_, i) => {
    const org = Math.floor(i / 2);
    return {
      organization: `Bench ${batch} customer ${org}`,
      site: i % 2 === 0 ? 'Head office' : 'Warehouse',
      externalId: `${batch}-${org}`,
      externalSystem: 'bench',
      timezone: 'Europe/Berlin',
      address: { city: 'Berlin', street: `Street ${i}` },
    };
  });
}

/** An access token with `mfa: true` for the demo partner administrator, as a sign-in with TOTP would issue. */
async function adminToken(server: RunningServer): Promise<{ token: string; partnerId: string }> {
  const { db, tokens } = server.context;
  const user = userByEmail(db, PARTNER_ADMIN);
  const membership = user && membershipOf(db, user.id);
  if (!user || !membership?.partnerId) throw new Error('demo partner administrator missing');
  const { sessionId } = tokens.issueRefresh(user.id, true, { ipAddress: null, userAgent: null });
  return {
    token: await tokens.signAccess(user.id, membership, true, user.token_version, sessionId),
    partnerId: membership.partnerId,
  };
}

export async function importsBench(server: RunningServer): Promise<Result[]> {
  const api = `${server.url}/api/v1`;
  const { token, partnerId } = await adminToken(server);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { errors?: unknown[] };
  };
  const { db } = server.context;
  const insertOrg = db.prepare(
    `INSERT INTO organizations (id, partner_id, name, slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insertSite = db.prepare(
    `INSERT INTO sites (id, org_id, name, timezone, address, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const results: Result[] = [];
  results.push(
    await measure(
      `raw SQLite insert of ${ROWS} rows (baseline)`,
      RUNS,
      1,
      (run) => {
        const rows = file(`raw${run}`);
        const at = new Date().toISOString();
        db.transaction(() => {
          let orgId = '';
          rows.forEach((row, i) => {
            if (i % 2 === 0) {
              orgId = randomUUID();
              insertOrg.run(orgId, partnerId, row.organization, `raw-${run}-${i}`, at, at);
            }
            insertSite.run(randomUUID(), orgId, row.site, row.timezone, JSON.stringify(row.address), at, at);
          });
        })();
        return Promise.resolve(ROWS);
      },
      { unit: 'row' },
    ),
  );
  results.push(
    await measure(
      `POST /orgs/import/preview, ${ROWS} rows`,
      RUNS,
      1,
      async (run) => {
        await post('/orgs/import/preview', { rows: file(`p${run}`) });
        return ROWS;
      },
      { unit: 'row' },
    ),
  );
  results.push(
    await measure(
      `POST /orgs/import (commit), ${ROWS} new rows`,
      RUNS,
      1,
      async (run) => {
        const res = await post('/orgs/import', { rows: file(`c${run}`) });
        if (res.errors?.length) throw new Error(`import errors: ${JSON.stringify(res.errors[0])}`);
        return ROWS;
      },
      { unit: 'row' },
    ),
  );
  results.push(
    await measure(
      `POST /orgs/import (commit), ${ROWS} rows all link-matched`,
      RUNS,
      1,
      async (run) => {
        await post('/orgs/import', { rows: file(`c${run}`), mode: 'update' });
        return ROWS;
      },
      { unit: 'row' },
    ),
  );
  return results;
}
