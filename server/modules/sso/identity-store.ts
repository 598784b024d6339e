import { statement, type Db } from '../../db/connection';

// Identity links (spec 1 "SSO identity link") and the account an organization provider creates on first sign-in.
// Creating the account is here rather than in the users module because only single sign-on makes an active
// account without a password, and it must happen in the same transaction as its link.

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  external_id: string;
  idp_email: string;
  profile: string;
  access_token_sealed: string | null;
  refresh_token_sealed: string | null;
  token_expires_at: string | null;
  last_login_at: string;
  created_at: string;
  updated_at: string;
}

export function identityBySubject(db: Db, providerId: string, externalId: string): IdentityRow | undefined {
  return statement(db, 'SELECT * FROM sso_identities WHERE provider_id = ? AND external_id = ?').get(
    providerId,
    externalId,
  ) as IdentityRow | undefined;
}

/** Creates the link, or refreshes it on every sign-in (one link per user and provider). */
export function upsertIdentity(
  db: Db,
  row: Omit<IdentityRow, 'created_at' | 'updated_at'>,
  at: string,
): void {
  statement(db, 'DELETE FROM sso_identities WHERE provider_id = ? AND user_id = ? AND external_id <> ?').run(
    row.provider_id,
    row.user_id,
    row.external_id,
  );
  statement(
    db,
    `INSERT INTO sso_identities (id, provider_id, user_id, external_id, idp_email, profile, access_token_sealed,
       refresh_token_sealed, token_expires_at, last_login_at, created_at, updated_at)
     VALUES (@id, @provider_id, @user_id, @external_id, @idp_email, @profile, @access_token_sealed,
       @refresh_token_sealed, @token_expires_at, @last_login_at, @at, @at)
     ON CONFLICT (provider_id, external_id) DO UPDATE SET
       user_id = excluded.user_id, idp_email = excluded.idp_email, profile = excluded.profile,
       access_token_sealed = excluded.access_token_sealed, refresh_token_sealed = excluded.refresh_token_sealed,
       token_expires_at = excluded.token_expires_at, last_login_at = excluded.last_login_at,
       updated_at = excluded.updated_at`,
  ).run({ ...row, at });
}

/** An active account without a password, member of the organization with the given role. */
export function insertProvisionedUser(
  db: Db,
  user: { id: string; email: string; name: string; orgId: string; roleId: string },
  at: string,
): void {
  statement(
    db,
    `INSERT INTO users (id, email, name, status, created_at, updated_at) VALUES (?, ?, ?, 'active', ?, ?)`,
  ).run(user.id, user.email, user.name, at, at);
  statement(
    db,
    'INSERT INTO organization_users (org_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)',
  ).run(user.orgId, user.id, user.roleId, at);
}
