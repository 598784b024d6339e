import { describe, expect, it } from 'vitest';
import { bufferMetricSample, flushMetricSamples } from '../../server/modules/device-metrics';
import { type Caller, dev, expectError, get, server, useDevicesWorld } from '../support/devices-world';

// GET /devices/:id/metrics answers exactly where GET /devices/:id does: another tenant's device, a device outside
// a technician's sites, or an unknown id are all 404 'Device not found', the same as the device itself.

useDevicesWorld();

const matrix: Array<[Caller, keyof typeof dev, boolean]> = [
  ['orgAdmin', 'a1s1', true],
  ['orgReadOnly', 'a1s2', true],
  ['keyA1Read', 'a1none', true],
  ['partnerAll', 'a2', true],
  ['system', 'b1', true],
  ['orgAdmin', 'a2', false],
  ['orgAdmin', 'b1', false],
  ['partnerSelected', 'a2', false],
  ['partnerAll', 'b1', false],
  ['siteTech', 'a1s2', false],
  ['siteTech', 'a1none', false],
  ['keyB1', 'a1s1', false],
  ['keyA1', 'b1', false],
];

describe('GET /devices/:id/metrics scope', () => {
  it.each(matrix)('%s reading %s: visible %s, like GET /devices/:id', async (caller, device, visible) => {
    const id = dev[device];
    bufferMetricSample(server.context.db, { deviceId: id, atMs: Date.now(), cpu: 12, ram: 34, disk: 56 });
    flushMetricSamples(server.context.db);
    const detail = await get(caller, `/devices/${id}`);
    const metrics = await get(caller, `/devices/${id}/metrics`);
    expect(metrics.status).toBe(detail.status);
    if (visible) {
      expect(metrics.status).toBe(200);
      expect((metrics.body.points as unknown[]).length).toBeGreaterThan(0);
    } else {
      expectError(metrics, 404, 'Device not found');
      expect(JSON.stringify(metrics.body)).not.toContain('points');
    }
  });

  it('an unknown or malformed id is 404 and an unauthenticated caller 401', async () => {
    expectError(
      await get('orgAdmin', '/devices/00000000-0000-4000-8000-000000000000/metrics'),
      404,
      'Device not found',
    );
    expectError(await get('orgAdmin', '/devices/not-a-uuid/metrics'), 404, 'Device not found');
    expect((await server.api.get(`/devices/${dev.a1s1}/metrics`)).status).toBe(401);
  });
});
