// Partner slugs for self-registration (spec 1 §8): derived from the company name, lowercase, runs of other
// characters turned into one hyphen, capped at 50 characters, then `-1`, `-2` ... on collision, 100 attempts.

export const SLUG_BASE_MAX = 50;
export const SLUG_ATTEMPTS = 100;
/** For a company name with no Latin letter or digit at all (e.g. only CJK characters or punctuation). */
export const SLUG_FALLBACK = 'partner';

export function slugBase(companyName: string): string {
  const base = companyName
    // Accented letters keep their base letter ("Müller" -> "muller") instead of becoming a hyphen.
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_BASE_MAX)
    // Cutting at 50 can leave a trailing hyphen behind.
    .replace(/-+$/, '');
  return base || SLUG_FALLBACK;
}

/** The candidates in the order they are tried: `base`, `base-1`, ... `base-99` (100 attempts). */
export function* slugCandidates(companyName: string): Generator<string> {
  const base = slugBase(companyName);
  yield base;
  for (let suffix = 1; suffix < SLUG_ATTEMPTS; suffix++) yield `${base}-${suffix}`;
}
