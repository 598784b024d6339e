import { CASE_INSENSITIVE, quantifierAt } from './regexp';

// The literal text a `matches` pattern requires at the start of a value, so the filter can narrow the devices a
// regular expression runs on with an index range first (`hostname LIKE 'WEB%'`) instead of calling into
// JavaScript for every device: `^(WEB|DC)[0-9]*7$` needs a value starting with WEB or DC. Only what is certain
// is read: anything the reader does not follow (a class, a wildcard, a nested group, a top-level `|`, a character
// outside ASCII) ends the prefix where it stands, and no prefix at all means no narrowing. LIKE compares ASCII
// letters without case, so the range holds every match of a pattern with or without `(?i)`.

/** Characters with a meaning in a pattern; every other character stands for itself. */
const META = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
/** A character that stands for itself: ASCII, and no meaning in a pattern. */
const literal = (c: string) => c.charCodeAt(0) < 0x80 && !META.has(c);
/** ASCII punctuation: escaped, it stands for itself (`\d`, `\w` and the like are classes). */
const punctuation = (c: string | undefined) => c !== undefined && /^[!-/:-@[-`{-~]$/.test(c);
/** Alternatives a prefix may fan out into before it is not worth a range each. */
const MAX_PREFIXES = 8;

/** True when `|` splits the whole pattern: then `^` anchors only the first alternative. */
function splitsAtTop(pattern: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

/** The literal alternatives of a group at `i` (`(WEB|DC)`, `(?:a|b)`) and where it ends; null for anything else. */
function literalGroupAt(pattern: string, i: number): { alternatives: string[]; end: number } | null {
  const body = pattern.startsWith('(?:', i) ? i + 3 : pattern[i + 1] === '?' ? -1 : i + 1;
  if (body < 0) return null; // a lookaround or a named group
  const close = pattern.indexOf(')', body);
  if (close < 0) return null;
  const alternatives = pattern.slice(body, close).split('|');
  if (alternatives.some((a) => a === '' || ![...a].every(literal))) return null;
  return { alternatives, end: close + 1 };
}

/**
 * The prefixes one of which every value matching `pattern` starts with, or null when there is none to use.
 * `(?i)` marks a case-insensitive pattern, as the filter language has it.
 */
export function requiredPrefixes(pattern: string): string[] | null {
  const p = pattern.startsWith(CASE_INSENSITIVE) ? pattern.slice(CASE_INSENSITIVE.length) : pattern;
  if (!p.startsWith('^') || splitsAtTop(p)) return null;
  let prefixes = [''];
  let i = 1;
  while (i < p.length) {
    const c = p[i]!;
    let alternatives: string[];
    let end: number;
    if (c === '\\' && punctuation(p[i + 1])) {
      alternatives = [p[i + 1]!]; // `\.`, `\-`: an escaped punctuation character stands for itself
      end = i + 2;
    } else if (c === '(') {
      const group = literalGroupAt(p, i);
      if (!group) break;
      ({ alternatives, end } = group);
    } else if (literal(c)) {
      alternatives = [c];
      end = i + 1;
    } else break;
    const quantifier = quantifierAt(p, end);
    if (quantifier?.min === 0 || prefixes.length * alternatives.length > MAX_PREFIXES) break;
    prefixes = prefixes.flatMap((prefix) => alternatives.map((a) => prefix + a));
    if (quantifier) break; // at least once: the text counts, what follows it is unknown
    i = end;
  }
  return prefixes.some((prefix) => prefix === '') ? null : prefixes;
}
