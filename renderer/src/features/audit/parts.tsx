import type { CSSProperties } from 'react';
import type { AuditCategory, AuditResult } from '../../../../server/contract';
import { RESULT_TONE } from '../../lib/audit-result';
import { StatusPill } from '../../ui';
import { CATEGORY_LABEL, RESULT_LABEL } from './model';

// The two badges of an entry: its result (a status pill) and its category (a quiet tag with its own colour).

export function ResultPill({ result }: { result: AuditResult }) {
  return (
    <StatusPill tone={RESULT_TONE[result]} testId="audit-result">
      {RESULT_LABEL[result]}
    </StatusPill>
  );
}

/** Each category's hue as an RGB triple (the tag's --cat); "system" keeps the quiet grey of audit.css. */
const CATEGORY_RGB: Partial<Record<AuditCategory, [number, number, number]>> = {
  authentication: [143, 194, 255],
  device: [143, 224, 184],
  automation: [215, 180, 255],
  policy: [244, 213, 158],
  alert: [255, 179, 161],
  compliance: [159, 227, 232],
  organization: [201, 212, 226],
};

export function CategoryBadge({ category }: { category: AuditCategory }) {
  const rgb = CATEGORY_RGB[category];
  // A custom property is not among CSSProperties' keys, hence the cast.
  const hue = rgb ? ({ '--cat': rgb.join(', ') } as CSSProperties) : undefined;
  return (
    <span className={`badge au-cat au-cat-${category}`} style={hue} data-testid="audit-category">
      {CATEGORY_LABEL[category]}
    </span>
  );
}

/** Who did it, as one line: the name, else the email, else what kind of actor it was. */
export function actorName(user: { name: string | null; email: string | null }, actorType: string): string {
  return user.name ?? user.email ?? (actorType === 'system' ? 'System' : actorType.replace('_', ' '));
}
