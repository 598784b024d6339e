import { describe, expect, it } from 'vitest';
import { requiredPrefixes } from '../../server/modules/filters/regexp-prefix';

// The text a `matches` pattern requires at the start of a value (server/modules/filters/regexp-prefix.ts): the
// filter narrows by it before running the pattern, so it must never leave out a value the pattern matches.

describe('the prefix a pattern requires', () => {
  it('reads anchored literals, literal alternatives and escaped punctuation', () => {
    expect(requiredPrefixes('^(WEB|DC)[0-9]*7$')).toEqual(['WEB', 'DC']);
    expect(requiredPrefixes('^web-\\d+$')).toEqual(['web-']);
    expect(requiredPrefixes('(?i)^kiosk')).toEqual(['kiosk']);
    expect(requiredPrefixes('^(?:lab|dev)\\.(a|b)x')).toEqual(['lab.ax', 'lab.bx', 'dev.ax', 'dev.bx']);
    expect(requiredPrefixes('^Fin%_')).toEqual(['Fin%_']); // LIKE's own wildcards are escaped by the caller
  });

  it('stops before anything optional and after the first repeated piece', () => {
    expect(requiredPrefixes('^web?x')).toEqual(['we']);
    expect(requiredPrefixes('^ab*')).toEqual(['a']);
    expect(requiredPrefixes('^ab{0,2}c')).toEqual(['a']);
    expect(requiredPrefixes('^ab+c')).toEqual(['ab']);
    expect(requiredPrefixes('^a{2}b')).toEqual(['a']);
    expect(requiredPrefixes('^(a|b)+c')).toEqual(['a', 'b']);
    expect(requiredPrefixes('^x(a|b)?c')).toEqual(['x']);
  });

  it('gives nothing when no text is certain', () => {
    for (const pattern of [
      'web', // not anchored
      '^a|^b', // the anchor holds for one alternative only
      '(^a)|b',
      '^(a|b)|c',
      '^[ab]c',
      '^.x',
      '^\\dx',
      '^(a|b?)x',
      '^(?=a)a',
      '^(?<n>a)',
      '^é',
      '^(a|b)(c|d)(e|f)(g|h)', // too many ranges: narrowed to the first eight
      '^$',
    ]) {
      const prefixes = requiredPrefixes(pattern);
      if (pattern.startsWith('^(a|b)(c')) expect(prefixes).toHaveLength(8);
      else expect(prefixes, pattern).toBeNull();
    }
  });

  it('never leaves out a value the pattern matches', () => {
    const patterns = ['^(WEB|DC)[0-9]*7$', '^web-\\d+$', '(?i)^KIOSK', '^ab+c', '^x(a|b)?c', '^lab\\.(a|b)'];
    const values = [
      'WEB17',
      'web17',
      'DC7',
      'web-12',
      'kiosk9',
      'Kiosk',
      'abbc',
      'xc',
      'xac',
      'lab.a',
      'lab.b1',
    ];
    for (const pattern of patterns) {
      const re = new RegExp(pattern.replace('(?i)', ''), pattern.startsWith('(?i)') ? 'i' : '');
      const prefixes = requiredPrefixes(pattern) ?? [''];
      for (const value of values.filter((v) => re.test(v))) {
        const like = (p: string) => value.toLowerCase().startsWith(p.toLowerCase());
        expect(prefixes.some(like), `${pattern} ${value}`).toBe(true);
      }
    }
  });
});
