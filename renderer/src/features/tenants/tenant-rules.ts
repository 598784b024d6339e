import { SLUG_PATTERN } from '../../lib/forms';

// The rules of the partner and organization forms that are plain functions of their values: the name and slug
// checks and what they write, and the optional whole-number caps.

/** The name and slug checks every tenant form makes (the inputs also stop at the server's lengths). */
export function nameSlugErrors(form: { name: string; slug: string }): { name?: string; slug?: string } {
  const errors: { name?: string; slug?: string } = {};
  if (!form.name.trim()) errors.name = 'Name is required';
  else if (form.name.trim().length > 255) errors.name = 'At most 255 characters';
  if (!form.slug) errors.slug = 'Slug is required';
  else if (form.slug.length > 100) errors.slug = 'At most 100 characters';
  else if (!SLUG_PATTERN.test(form.slug)) errors.slug = 'Lowercase letters, digits and single hyphens only';
  return errors;
}

/** What every tenant form writes of the name and slug: the name trimmed, the slug as typed (validated). */
export function nameSlugBody(form: { name: string; slug: string }): { name: string; slug: string } {
  return { name: form.name.trim(), slug: form.slug };
}

/** A whole number in a cap field, or an error for anything else; empty is no cap. */
export function capError(value: string): string | undefined {
  return value.trim() && !/^\d+$/.test(value.trim()) ? 'A whole number, or empty for no cap' : undefined;
}

/** The cap a field holds: its whole number, or null (empty) for no cap. */
export function capValue(value: string): number | null {
  return value.trim() ? Number(value.trim()) : null;
}
