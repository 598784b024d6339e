// The registration module's public surface: what other modules may import; everything else is internal. Its routes are
// mounted by server/index.ts from routes.ts (the composition root), not re-exported here, so that importing this
// surface never pulls in another module's request handlers.
export { emailField, newPasswordField } from './schemas';
// The emailed single-use links (registration, invitations, password reset) share one table and one store.
export {
  consumeEmailToken,
  findUsableEmailToken,
  issueEmailToken,
  retireUserTokens,
  type EmailTokenPurpose,
  type IssuedEmailToken,
} from './email-token-store';
