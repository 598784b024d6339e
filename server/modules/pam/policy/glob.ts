// Path globs of PAM rules (matchPathGlob). Windows and POSIX paths alike: `\` and `/` are the same separator and
// letters compare case-insensitively. `*` is any run of characters within one path segment, `**` any run across
// segments (`**/` may also stand for no directory at all, so `C:\Tools\**\x.exe` matches `C:\Tools\x.exe`), `?`
// one character other than a separator. Every other character is literal: no regular expression is built from
// rule text, and matching simulates the pattern as a set of positions (O(path x pattern), no backtracking), so a
// hostile pattern cannot stall the ingest path.

type Token =
  | { kind: 'char'; ch: string }
  | { kind: 'sep' }
  | { kind: 'any' }
  | { kind: 'star' }
  /** `dirOptional`: a `**` followed by a separator, which together may match nothing. */
  | { kind: 'globstar'; dirOptional: boolean };

export type PathMatcher = (path: string) => boolean;

const isSep = (ch: string) => ch === '/' || ch === '\\';

/** The comparison form of a path or pattern: one separator, lower case. */
export const normalizePath = (value: string): string => value.replace(/\\/g, '/').toLowerCase();

function tokenize(pattern: string): Token[] {
  const chars = [...normalizePath(pattern)];
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '*') {
      if (chars[i + 1] === '*') {
        // Any longer run of stars is one globstar.
        while (chars[i + 1] === '*') i++;
        tokens.push({ kind: 'globstar', dirOptional: chars[i + 1] === '/' });
      } else {
        tokens.push({ kind: 'star' });
      }
    } else if (ch === '?') tokens.push({ kind: 'any' });
    else if (isSep(ch)) tokens.push({ kind: 'sep' });
    else tokens.push({ kind: 'char', ch });
  }
  return tokens;
}

export function compileGlob(pattern: string): PathMatcher {
  const tokens = tokenize(pattern);
  const end = tokens.length;

  // Adds position `i` and every position reachable from it without consuming a character.
  const close = (set: Uint8Array, start: number) => {
    const stack = [start];
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (set[i]) continue;
      set[i] = 1;
      const token = tokens[i];
      if (!token) continue;
      if (token.kind === 'star' || token.kind === 'globstar') stack.push(i + 1);
      if (token.kind === 'globstar' && token.dirOptional) stack.push(i + 2);
    }
  };

  return (path: string) => {
    let current = new Uint8Array(end + 1);
    close(current, 0);
    for (const ch of normalizePath(path)) {
      const next = new Uint8Array(end + 1);
      let alive = false;
      for (let i = 0; i < end; i++) {
        if (!current[i]) continue;
        const token = tokens[i]!;
        switch (token.kind) {
          case 'char':
            if (token.ch === ch) close(next, i + 1);
            break;
          case 'sep':
            if (ch === '/') close(next, i + 1);
            break;
          case 'any':
            if (ch !== '/') close(next, i + 1);
            break;
          case 'star':
            if (ch !== '/') close(next, i);
            break;
          case 'globstar':
            close(next, i);
            break;
        }
      }
      for (let i = 0; i <= end && !alive; i++) alive = next[i] === 1;
      if (!alive) return false;
      current = next;
    }
    return current[end] === 1;
  };
}
