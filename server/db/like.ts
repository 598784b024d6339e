// LIKE patterns built from a caller's text: `\`, `%` and `_` are escaped so they match literally. Every query
// using them says `LIKE ? ESCAPE '\'`.

export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A pattern matching any value that contains `text` (case-insensitive for ASCII, as SQLite's LIKE is). */
export const likeContains = (text: string): string => `%${escapeLike(text)}%`;
