import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connection';
import { loadMigrations, migrate } from '../../server/db/migrate';
import {
  countOrgDevices,
  countPartnerDevices,
  decommissionAgentDevice,
  setDeviceOffline,
  setDeviceOnline,
} from '../../server/modules/agents/device-store';
import { insertFleet, type Fleet } from '../support/fleet';
import { openWorld, ORGS } from '../support/filter-world';

// The live device counts of migration 0021, which the enrollment caps read, are kept by triggers: after every kind
// of write to devices they equal a count of the rows, and the migration fills them for devices that existed.

let db: Db;
let fleet: Fleet;
const AT = '2026-02-01T00:00:00.000Z';

const counted = (orgId: string) =>
  db
    .prepare("SELECT count(*) FROM devices WHERE org_id = ? AND status <> 'decommissioned'")
    .pluck()
    .get(orgId) as number;

function expectCountsInStep(): void {
  for (const org of ORGS) expect(countOrgDevices(db, org)).toBe(counted(org));
  expect(countPartnerDevices(db, 'p')).toBe(ORGS.reduce((sum, org) => sum + counted(org), 0));
}

const liveDevice = (orgId: string, status: string) =>
  fleet.devices.find((d) => d.orgId === orgId && d.status === status)!.id;

describe('live device counts per organization', () => {
  beforeEach(() => {
    db = openWorld();
    fleet = insertFleet(db, { orgIds: ORGS, count: 120, seed: 21 });
  });
  afterEach(() => db.close());

  it('count the devices written, decommissioned ones excluded', () => {
    expect(fleet.devices.some((d) => d.status === 'decommissioned')).toBe(true);
    expectCountsInStep();
    expect(countOrgDevices(db, 'org-unknown')).toBe(0);
  });

  it('follow presence changes, decommissioning, a device moved to another organization and a deletion', () => {
    const online = liveDevice('org-a', 'online');
    expect(setDeviceOffline(db, online, AT)).toBeDefined();
    expect(setDeviceOnline(db, online, AT)).toBeDefined();
    expectCountsInStep();
    expect(decommissionAgentDevice(db, online, AT)).toBe(true);
    expectCountsInStep();
    db.prepare("UPDATE devices SET status = 'maintenance' WHERE id = ?").run(online);
    expectCountsInStep();
    db.prepare("UPDATE devices SET org_id = 'org-b' WHERE id = ?").run(liveDevice('org-a', 'offline'));
    expectCountsInStep();
    const gone = liveDevice('org-b', 'online');
    for (const table of ['device_metric_points', 'device_group_members', 'device_tags', 'device_software'])
      db.prepare(`DELETE FROM ${table} WHERE device_id = ?`).run(gone);
    db.prepare('DELETE FROM devices WHERE id = ?').run(gone);
    expectCountsInStep();
  });

  it("leave a deleted organization's devices out of the partner's count", () => {
    const before = countPartnerDevices(db, 'p');
    db.prepare('UPDATE organizations SET deleted_at = ? WHERE id = ?').run(AT, 'org-b');
    expect(countPartnerDevices(db, 'p')).toBe(before - counted('org-b'));
  });

  it('are filled by the migration for the devices that existed before it', () => {
    db.close();
    const migrations = loadMigrations();
    const before = migrations.filter((m) => m.version < 21);
    db = openWorld(before);
    fleet = insertFleet(db, { orgIds: ORGS, count: 80, seed: 5 });
    migrate(db, migrations);
    expectCountsInStep();
  });
});
