import { createHmac, randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import { randomToken, safeEqual, sha256Hex } from '../../crypto';
import { transaction } from '../../db/after-commit';
import { clientInfo } from '../../http/client-info';
import { HttpError } from '../../http/errors';
import type { LimitRule } from '../../http/rate-limit';
import { findLiveEnrollmentKey, redeemEnrollmentKey } from '../enrollment-keys';
import {
  agentDeviceByAgentId,
  countOrgDevices,
  countPartnerDevices,
  enrollTargetOf,
  insertEnrolledDevice,
  reissueAgentCredential,
  retireAgentId,
  type EnrollTarget,
} from './device-store';
import { emitDeviceEvent } from './presence';
import type { EnrollBody } from './schemas';

// Agent enrollment (DESIGN §3; spec 1 for keys, caps and partner status), built to survive a storm: ten thousand
// agents starting at once behind one address.
// - The per-address ceiling is a sliding window that counts admitted enrollments only: refused retries never
//   extend it, and its Retry-After is spread so a refused crowd comes back spread out, not in one instant.
// - Enrollment is idempotent per install: an agent sends its own stable `installId`, and enrolling again with the
//   same key and install id (its answer was lost, or it lost its credential) returns the same device with a new
//   credential, without a second device and without counting another use of the key. The device's agent id is
//   derived from (key, install id) under the server's key pepper, so the lookup is the agent id's own unique index
//   and two racing enrollments of one install can never both insert. Another key (and so another partner) derives
//   another id: an install id alone never reaches a device enrolled through a different key.
// - Two enrollments of one install can cross (the agent gave up on the first and tried again; the server answers
//   them in either order): a credential never used yet waits beside its replacement until either is used.

/**
 * Every enrollment counts against a generous ceiling per address: a fleet rollout behind one NAT address, the
 * bundled simulator and the benchmark enroll thousands of devices from a single address, so the ceiling (300 a
 * second, 3,000 at once) only stops a runaway script from turning enrollment into a write storm. Guesses (a wrong
 * enrollment secret, a key that matches nothing) go through the secret guard (kind `enrollment`), which counts
 * failures only.
 */
export const ENROLL_ATTEMPTS_PER_IP: LimitRule = {
  bucket: 'agent-enroll:ip',
  limit: 3000,
  windowSeconds: 10,
};
/** A refused agent is told to come back after the window has room, plus up to this many seconds. */
export const ENROLL_RETRY_SPREAD_SECONDS = 10;

const RATE_LIMITED = 'Too many enrollment attempts';

const PARTNER_INACTIVE_MESSAGES: Record<string, string> = {
  pending: 'Partner account is pending activation',
  suspended: 'Partner account is suspended',
  churned: 'Partner account is closed',
  offboarding: 'Partner account is being offboarded',
};

export interface EnrollResponse {
  agentId: string;
  deviceId: string;
  orgId: string;
  siteId: string | null;
  authToken: string;
  heartbeatIntervalSeconds: number;
}

/** Agent credentials: `agt_` + 32 random bytes; only the SHA-256 is stored. */
export function newAgentToken(): { token: string; hash: string } {
  const token = `agt_${randomToken(32)}`;
  return { token, hash: sha256Hex(token) };
}

/**
 * The agent id of an install enrolled through a key: an HMAC under the key pepper, shaped as a UUID (version 8,
 * "custom"). Not guessable from the key id and install id without the pepper, and never the same for two keys.
 */
export function installAgentId(pepper: string, keyId: string, installId: string): string {
  const bytes = createHmac('sha256', pepper).update(`agent-install\0${keyId}\0${installId}`).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The server-wide enrollment secret, when one is configured. */
function secretMatches(secret: string | null, given: string | undefined): boolean {
  if (secret === null) return true;
  // Compared as digests so the comparison takes the same time whatever the lengths.
  return Boolean(given) && safeEqual(sha256Hex(given ?? ''), sha256Hex(secret));
}

const unknownKey = (err: unknown): err is HttpError =>
  err instanceof HttpError && err.extra.reason === 'enrollment_key_not_found';

const keyNotFound = () =>
  new HttpError(401, 'Invalid enrollment key', undefined, { reason: 'enrollment_key_not_found' });

/** The organization the key places devices in, refused when its partner is gone or not active. */
function activeTarget(ctx: AppContext, orgId: string): EnrollTarget {
  const target = enrollTargetOf(ctx.db, orgId);
  if (!target || target.partner_deleted) throw keyNotFound();
  if (target.partner_status !== 'active') {
    throw new HttpError(
      403,
      PARTNER_INACTIVE_MESSAGES[target.partner_status] ?? 'Partner account is not active',
      'PARTNER_INACTIVE',
    );
  }
  return target;
}

interface Placement {
  /** `reissued`: the install enrolled before; its device got a new credential. */
  kind: 'enrolled' | 'reissued';
  deviceId: string;
  agentId: string;
  orgId: string;
  siteId: string | null;
  keyId: string;
  hostname: string;
}

interface PlaceInput {
  body: EnrollBody;
  tokenHash: string;
  lastSeenIp: string | null;
  at: string;
}

/** The device of a repeated enrollment of this install, or the agent id a first enrollment takes. */
function priorEnrollment(ctx: AppContext, input: PlaceInput): { reissued: Placement } | { agentId: string } {
  const { body } = input;
  const key = body.installId ? findLiveEnrollmentKey(ctx, body.enrollmentKey, Date.parse(input.at)) : null;
  if (!key || !body.installId) return { agentId: randomUUID() };
  const agentId = installAgentId(ctx.enrollmentKeyPepper, key.id, body.installId);
  const previous = agentDeviceByAgentId(ctx.db, agentId);
  if (!previous) return { agentId };
  // A derived id is never another organization's; were it ever, that device is left alone.
  if (previous.org_id !== key.orgId) return { agentId: randomUUID() };
  if (previous.status === 'decommissioned') {
    // The install comes back after its device was removed: a new device, under the install's id.
    retireAgentId(ctx.db, previous.id);
    return { agentId };
  }
  activeTarget(ctx, key.orgId);
  reissueAgentCredential(ctx.db, {
    id: previous.id,
    tokenHash: input.tokenHash,
    lastSeenIp: input.lastSeenIp,
    at: input.at,
  });
  return {
    reissued: {
      kind: 'reissued',
      deviceId: previous.id,
      agentId,
      orgId: previous.org_id,
      siteId: previous.site_id,
      keyId: key.id,
      hostname: previous.hostname,
    },
  };
}

/** One transaction: a refusal after the key was redeemed (inactive partner, device cap) rolls the use back. */
function place(ctx: AppContext, input: PlaceInput): Placement {
  const { body, at } = input;
  return transaction(ctx.db, () => {
    const prior = priorEnrollment(ctx, input);
    if ('reissued' in prior) return prior.reissued;
    const redeemed = redeemEnrollmentKey(ctx, body.enrollmentKey, Date.parse(at));
    if (!redeemed.ok) {
      throw new HttpError(401, 'Invalid enrollment key', undefined, { reason: redeemed.reason });
    }
    const target = activeTarget(ctx, redeemed.key.orgId);
    if (target.org_max_devices !== null && countOrgDevices(ctx.db, target.org_id) >= target.org_max_devices) {
      throw new HttpError(403, 'The organization has reached its device limit', 'DEVICE_LIMIT_REACHED');
    }
    if (
      target.partner_max_devices !== null &&
      countPartnerDevices(ctx.db, target.partner_id) >= target.partner_max_devices
    ) {
      throw new HttpError(403, 'The partner has reached its device limit', 'DEVICE_LIMIT_REACHED');
    }
    const deviceId = randomUUID();
    insertEnrolledDevice(ctx.db, {
      id: deviceId,
      orgId: target.org_id,
      siteId: redeemed.key.siteId,
      agentId: prior.agentId,
      tokenHash: input.tokenHash,
      enrollmentKeyId: redeemed.key.id,
      hostname: body.hostname,
      displayName: body.displayName ?? null,
      osType: body.osType,
      osVersion: body.osVersion,
      osBuild: body.osBuild ?? null,
      architecture: body.architecture,
      agentVersion: body.agentVersion,
      deviceRole: body.deviceRole ?? 'workstation',
      hwManufacturer: body.hardware?.manufacturer ?? null,
      hwModel: body.hardware?.model ?? null,
      hwSerialNumber: body.hardware?.serialNumber ?? null,
      hwCpuModel: body.hardware?.cpuModel ?? null,
      hwGpuModel: body.hardware?.gpuModel ?? null,
      hwCpuCores: body.hardware?.cpuCores ?? null,
      hwRamTotalMb: body.hardware?.ramTotalMb ?? null,
      hwDiskTotalGb: body.hardware?.diskTotalGb ?? null,
      netIpAddress: body.network?.ipAddress ?? null,
      netMacAddress: body.network?.macAddress ?? null,
      lastSeenIp: input.lastSeenIp,
      at,
    });
    // Announced inside the transaction: listeners that write (the presence history) write in it, and the pushes
    // and webhooks follow its commit.
    emitDeviceEvent(
      ctx,
      'device.enrolled',
      { id: deviceId, hostname: body.hostname, org_id: target.org_id, site_id: redeemed.key.siteId },
      'online',
    );
    return {
      kind: 'enrolled',
      deviceId,
      agentId: prior.agentId,
      orgId: target.org_id,
      siteId: redeemed.key.siteId,
      keyId: redeemed.key.id,
      hostname: body.hostname,
    };
  });
}

export function enroll(ctx: AppContext, req: Request, body: EnrollBody): EnrollResponse {
  const client = clientInfo(req);
  ctx.limiter.admit(ENROLL_ATTEMPTS_PER_IP, client.ipAddress ?? 'unknown', RATE_LIMITED, {
    spreadSeconds: ENROLL_RETRY_SPREAD_SECONDS,
  });

  const { token, hash } = newAgentToken();
  const input: PlaceInput = {
    body,
    tokenHash: hash,
    lastSeenIp: client.ipAddress,
    at: new Date().toISOString(),
  };
  // A wrong secret and a key that matches nothing are guesses. Expired and exhausted keys are real keys, and the
  // other refusals (partner inactive, device caps) are not about the secret at all: they count nothing.
  const attempt = ctx.guard.check(
    { kind: 'enrollment', req },
    (): { placed: Placement } | { refused: HttpError } => {
      if (!secretMatches(ctx.config.enrollmentSecret, body.enrollmentSecret)) {
        return { refused: new HttpError(403, 'Invalid enrollment secret') };
      }
      try {
        return { placed: place(ctx, input) };
      } catch (err) {
        if (unknownKey(err)) return { refused: err };
        throw err;
      }
    },
    (found) => 'placed' in found,
  );
  if ('refused' in attempt) throw attempt.refused;
  const placed = attempt.placed;

  const audit = {
    orgId: placed.orgId,
    actorType: 'agent' as const,
    actorId: placed.deviceId,
    resourceType: 'device',
    resourceId: placed.deviceId,
    resourceName: placed.hostname,
    ipAddress: client.ipAddress,
    userAgent: client.userAgent,
  };
  if (placed.kind === 'reissued') {
    // Whoever held the old credential (nobody, when the first answer was lost) is cut off now; one never used
    // waits for its agent's first request (device-store reissueAgentCredential).
    ctx.agentHub.disconnect(placed.deviceId, 'agent credentials replaced by a new enrollment');
    ctx.audit.record({
      ...audit,
      action: 'agent.reenroll',
      details: { agentId: placed.agentId, enrollmentKeyId: placed.keyId, agentVersion: body.agentVersion },
    });
  } else {
    ctx.audit.record({
      ...audit,
      action: 'device.create',
      details: {
        agentId: placed.agentId,
        enrollmentKeyId: placed.keyId,
        siteId: placed.siteId,
        osType: body.osType,
        architecture: body.architecture,
        agentVersion: body.agentVersion,
      },
    });
  }
  return {
    agentId: placed.agentId,
    deviceId: placed.deviceId,
    orgId: placed.orgId,
    siteId: placed.siteId,
    authToken: token,
    heartbeatIntervalSeconds: ctx.config.agentHeartbeatSeconds,
  };
}
