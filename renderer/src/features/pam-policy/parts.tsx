import type { PamVerdict } from '../../../../server/contract';
import { StatusPill } from '../../ui';
import { VERDICT_LABEL, VERDICT_TONE } from './model';

// Small pieces the policy screens share.

export const RULES_FORBIDDEN = {
  title: 'Rules are not available to you',
  text: "Your account cannot read this organization's elevation rules.",
};

export function VerdictPill({ verdict, testId }: { verdict: PamVerdict; testId?: string }) {
  return (
    <StatusPill tone={VERDICT_TONE[verdict]} testId={testId}>
      {VERDICT_LABEL[verdict]}
    </StatusPill>
  );
}
