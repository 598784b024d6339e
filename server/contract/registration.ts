// Self-registration, email verification, invitations and passwords (spec 1, /auth).

/**
 * The one password policy's minimum length: setup, bootstrap, registration, invitation acceptance, reset and change
 * all ask for it, and the console's password fields say it. Spec 1 sets 8 as a floor; 12 is the first-run
 * administrator's length, the stricter of the two. The renderer may import only types from here, so it holds the
 * value as a constant of this literal type: changing the number here fails to compile until both sides follow.
 */
export type PasswordMinLength = 12;
export const PASSWORD_MIN_LENGTH: PasswordMinLength = 12;

export interface AcceptedResponse {
  success: true;
  message: string;
}

export interface VerifyEmailResponse {
  verified: true;
  user: { id: string; email: string; name: string; mfaEnabled: boolean };
  /** Null for a standalone user registration (no tenant yet; an administrator invites them). */
  partner: { id: string; name: string; slug: string; status: string } | null;
  mfaRequired: boolean;
  /** Null when there is no tenant to sign in to yet. The refresh token is set as an HTTP-only cookie. */
  tokens: { accessToken: string; expiresInSeconds: number } | null;
}

/** `GET /auth/invitation?token=`: what the acceptance page shows before the invitee sets a password. */
export interface InvitationInfo {
  email: string;
  name: string;
  tenantName: string;
  roleName: string;
  expiresAt: string;
  /** The administrator who sent the invitation, when still known. */
  invitedByName: string | null;
}
