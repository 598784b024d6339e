import { useState } from 'react';
import type { ImportMode } from '../../../../server/contract';
import type { Decision, PreviewLine } from './model';
import { decisionKey } from './run';

/** What the technician chose in the preview: a decision per waiting row (or group), and the mode for rows that exist. */
export interface ImportChoices {
  decisionOf: (line: PreviewLine) => Decision | undefined;
  /** Decide `lines` (one row, or every row waiting). */
  decide: (lines: PreviewLine[], decision: Decision) => void;
  mode: ImportMode;
  setMode: (mode: ImportMode) => void;
  /** A new preview: the rows it asks about are new, so no earlier decision carries over. */
  clearDecisions: () => void;
  /** A new file: no decisions, and the safe mode (updating existing records is chosen per file, never inherited). */
  reset: () => void;
}

export function useImportChoices(model: { decidesPerGroup: boolean }): ImportChoices {
  const [decisions, setDecisions] = useState<ReadonlyMap<string, Decision>>(new Map());
  const [mode, setMode] = useState<ImportMode>('skip');
  return {
    decisionOf: (line) => decisions.get(decisionKey(model, line)),
    decide: (targets, decision) =>
      setDecisions((current) => {
        const next = new Map(current);
        for (const line of targets) next.set(decisionKey(model, line), decision);
        return next;
      }),
    mode,
    setMode,
    clearDecisions: () => setDecisions(new Map()),
    reset: () => {
      setDecisions(new Map());
      setMode('skip');
    },
  };
}
