import { statement, type Db } from '../../db/connection';

// The SQL of approver devices and their challenges (webauthn.ts): pam_approver_devices and webauthn_challenges,
// one challenge per (user, purpose, request).

export interface ApproverDeviceRow {
  id: string;
  user_id: string;
  name: string;
  credential_id: string;
  public_key: Buffer;
  counter: number;
  transports: string;
  device_type: string | null;
  backed_up: number;
  created_at: string;
  last_used_at: string | null;
}

export type ChallengePurpose = 'register' | 'approve';

export function approverDevicesOf(db: Db, userId: string): ApproverDeviceRow[] {
  return statement(db, 'SELECT * FROM pam_approver_devices WHERE user_id = ? ORDER BY created_at').all(
    userId,
  ) as ApproverDeviceRow[];
}

export function hasApproverDeviceRow(db: Db, userId: string): boolean {
  return Boolean(statement(db, 'SELECT 1 FROM pam_approver_devices WHERE user_id = ? LIMIT 1').get(userId));
}

export function approverDeviceById(db: Db, id: string): ApproverDeviceRow | undefined {
  return statement(db, 'SELECT * FROM pam_approver_devices WHERE id = ?').get(id) as
    ApproverDeviceRow | undefined;
}

export function approverDeviceByCredential(
  db: Db,
  credentialId: string,
  userId: string,
): ApproverDeviceRow | undefined {
  return statement(db, 'SELECT * FROM pam_approver_devices WHERE credential_id = ? AND user_id = ?').get(
    credentialId,
    userId,
  ) as ApproverDeviceRow | undefined;
}

/** Throws SQLITE_CONSTRAINT_UNIQUE when the credential is already registered. */
export function insertApproverDevice(
  db: Db,
  row: Omit<ApproverDeviceRow, 'last_used_at' | 'public_key'> & { public_key: Buffer; aaguid: string },
): void {
  statement(
    db,
    `INSERT INTO pam_approver_devices (id, user_id, name, credential_id, public_key, counter, transports, aaguid,
       device_type, backed_up, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.id,
    row.user_id,
    row.name,
    row.credential_id,
    row.public_key,
    row.counter,
    row.transports,
    row.aaguid,
    row.device_type,
    row.backed_up,
    row.created_at,
  );
}

export function deleteApproverDevice(db: Db, id: string, userId: string): ApproverDeviceRow | undefined {
  return statement(db, 'DELETE FROM pam_approver_devices WHERE id = ? AND user_id = ? RETURNING *').get(
    id,
    userId,
  ) as ApproverDeviceRow | undefined;
}

export function recordDeviceUse(db: Db, id: string, counter: number, at: string): void {
  statement(db, 'UPDATE pam_approver_devices SET counter = ?, last_used_at = ? WHERE id = ?').run(
    counter,
    at,
    id,
  );
}

/** Issuing a challenge replaces the one before it for the same (user, purpose, request). */
export function putChallenge(
  db: Db,
  key: { userId: string; purpose: ChallengePurpose; requestId: string },
  challenge: string,
  expiresAt: string,
): void {
  statement(
    db,
    `INSERT INTO webauthn_challenges (user_id, purpose, elevation_request_id, challenge, expires_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, purpose, elevation_request_id)
     DO UPDATE SET challenge = excluded.challenge, expires_at = excluded.expires_at`,
  ).run(key.userId, key.purpose, key.requestId, challenge, expiresAt);
}

/** Deletes the challenge and returns what it was, so it can never be used twice. */
export function takeChallenge(
  db: Db,
  key: { userId: string; purpose: ChallengePurpose; requestId: string },
): { challenge: string; expires_at: string } | undefined {
  return statement(
    db,
    `DELETE FROM webauthn_challenges WHERE user_id = ? AND purpose = ? AND elevation_request_id = ?
     RETURNING challenge, expires_at`,
  ).get(key.userId, key.purpose, key.requestId) as { challenge: string; expires_at: string } | undefined;
}
