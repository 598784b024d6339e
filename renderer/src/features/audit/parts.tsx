import type { AuditCategory, AuditResult } from '../../../../server/contract';
import { StatusPill, type Tone } from '../../ui';
import { CATEGORY_LABEL, RESULT_LABEL } from './model';

const RESULT_TONE: Record<AuditResult, Tone> = { success: 'ok', failure: 'bad', denied: 'warn' };

// The two badges of an entry: its result (a status pill) and its category (a quiet tag with its own colour).

export function ResultPill({ result }: { result: AuditResult }) {
  return (
    <StatusPill tone={RESULT_TONE[result]} testId="audit-result">
      {RESULT_LABEL[result]}
    </StatusPill>
  );
}

export function CategoryBadge({ category }: { category: AuditCategory }) {
  return (
    <span className={`badge au-cat au-cat-${category}`} data-testid="audit-category">
      {CATEGORY_LABEL[category]}
    </span>
  );
}

/** Who did it, as one line: the name, else the email, else what kind of actor it was. */
export function actorName(user: { name: string | null; email: string | null }, actorType: string): string {
  return user.name ?? user.email ?? (actorType === 'system' ? 'System' : actorType.replace('_', ' '));
}
