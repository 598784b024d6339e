import type { ReactNode } from 'react';
import { Link, useRouter } from '../../lib/router';
import { AuthLayout } from '../../ui/basics';
import { Icon, type IconName } from '../../ui/Icon';
import './public.css';

// Pieces the signed-out pages share: their notices ("Check your email", "This link no longer works"), the
// progress steps of a first sign-in, the ways back to sign in, and the single-use token their emailed links carry.

/** The `token` query parameter of an emailed link, trimmed; '' when the link has none. */
export function useLinkToken(): string {
  const search = useRouter((s) => s.search);
  return new URLSearchParams(search).get('token')?.trim() ?? '';
}

/** Round icon over the page title; `tone` colours the icon (bad: a dead link, ok: done). */
export function NoticeHead({
  icon,
  tone,
  testId,
  children,
}: {
  icon: IconName;
  tone?: 'bad' | 'ok';
  testId?: string;
  children: ReactNode;
}) {
  return (
    <>
      <div className={tone ? `auth-step-icon ${tone}` : 'auth-step-icon'}>
        <Icon name={icon} size={20} />
      </div>
      <h1 className="auth-title" data-testid={testId}>
        {children}
      </h1>
    </>
  );
}

/**
 * A page that tells something: its NoticeHead, the lead paragraph, then what the reader can do (`children`).
 */
export function NoticePage({
  icon,
  tone,
  testId,
  title,
  lead,
  children,
}: {
  icon: IconName;
  tone?: 'bad' | 'ok';
  /** Of the title. */
  testId?: string;
  title: string;
  lead: ReactNode;
  children: ReactNode;
}) {
  return (
    <AuthLayout>
      <NoticeHead icon={icon} tone={tone} testId={testId}>
        {title}
      </NoticeHead>
      <p className="auth-lead">{lead}</p>
      {children}
    </AuthLayout>
  );
}

/** The numbered steps of a first sign-in (setup, invitation, registration, then MFA): those before `current` done. */
export function AuthSteps({ label, steps, current }: { label: string; steps: string[]; current: number }) {
  return (
    <div className="steps" aria-label={label}>
      {steps.map((step, i) => (
        <span key={step} className={i < current ? 'step done' : i === current ? 'step current' : 'step'}>
          {`${i + 1} · ${step}`}
        </span>
      ))}
    </div>
  );
}

/** The one button of a page whose flow has ended: on to the sign-in page. */
export function GoToSignIn({ testId }: { testId?: string }) {
  return (
    <Link to="/login" className="btn btn-primary btn-block" data-testid={testId}>
      Go to sign in
    </Link>
  );
}

/** The links row under a page, ending with "Back to sign in"; `children` go before that link. */
export function BackToSignIn({ children }: { children?: ReactNode }) {
  return (
    <div className="auth-links">
      {children}
      <Link to="/login" className="link">
        Back to sign in
      </Link>
    </div>
  );
}
