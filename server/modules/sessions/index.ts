// The sessions module's public surface: signing in ends here for every way in (password, MFA, SMS, invitation,
// setup): access and refresh tokens, the session cookies and the pending MFA sign-in challenge. Kept apart from auth
// (the password sign-in) so that auth and mfa both use it without importing each other.
export { TokenService, RefreshReuseError, type AccessClaims, type Rotation } from './tokens';
export {
  clearSessionCookies,
  CSRF_COOKIE,
  CSRF_HEADER,
  issueSession,
  issueSessionWithId,
  readCookie,
  REFRESH_COOKIE,
} from './session';
export {
  challengeExpired,
  challengeUser,
  firstStepOf,
  liveChallenge,
  openLoginChallenge,
  type FirstStep,
} from './challenge';
export { consumeLoginChallenge, deleteLoginChallengesOf, recordChallengeFailure } from './store';
export { previousSessionStart, sessionStartedAt } from './refresh-token-store';
