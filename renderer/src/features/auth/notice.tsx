import type { ReactNode } from 'react';
import { Link, useRouter } from '../../lib/router';
import { Icon, type IconName } from '../../ui/Icon';
import './public.css';

// Pieces the signed-out pages share: the icon-and-title head of their notices ("Check your email", "This link
// no longer works"), the "Back to sign in" links row, and the single-use token their emailed links carry.

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
