// The public surface of the auth feature: what the route table and other features may import.

export { AcceptInvitePage } from './AcceptInvitePage';
export { ForgotPasswordPage } from './ForgotPasswordPage';
export { LoginPage } from './LoginPage';
export { MfaEnrollPage } from './MfaEnrollPage';
export { RegisterPage } from './RegisterPage';
export { ResetPasswordPage } from './ResetPasswordPage';
export { SetupPage } from './SetupPage';
export { VerifyEmailPage } from './VerifyEmailPage';
