// Self-registration, email verification, invitations and passwords (spec 1, /auth).

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
