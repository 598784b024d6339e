// The words the console's forms use for a name or a free text against its limits (renderer/src/lib/text-limits.ts):
// a required name says nothing until the form was tried, and counts its trimmed length.
import { describe, expect, it } from 'vitest';
import { lengthProblem, nameProblem } from '../../renderer/src/lib/text-limits';

describe('text limits', () => {
  it('says "At most N characters." only past the limit', () => {
    expect(lengthProblem('x'.repeat(10), 10)).toBeNull();
    expect(lengthProblem('x'.repeat(11), 10)).toBe('At most 10 characters.');
  });

  it('asks for a missing name only once the form was tried', () => {
    const rule = { max: 5, empty: 'Give it a name.' };
    expect(nameProblem('   ', { ...rule, tried: false })).toBeNull();
    expect(nameProblem('   ', { ...rule, tried: true })).toBe('Give it a name.');
  });

  it('measures the name without its surrounding spaces', () => {
    const rule = { max: 5, empty: 'Give it a name.', tried: true };
    expect(nameProblem('  abcde  ', rule)).toBeNull();
    expect(nameProblem('abcdef', rule)).toBe('At most 5 characters.');
  });
});
