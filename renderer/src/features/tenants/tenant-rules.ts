import { SLUG_PATTERN } from '../../lib/forms';
import { writeBody } from '../../lib/write-body';

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

/** The fields every tenant form (partner, organization) has: a name, a slug, a type and a device cap. */
interface TenantFields<T extends string> {
  name: string;
  slug: string;
  type: T;
  maxDevices: string;
}

/** What every tenant form writes of its common fields: the name trimmed, the slug as typed (validated), the type,
 * the device cap as a number (null: none). */
export function tenantBody<T extends string>(form: TenantFields<T>) {
  return { name: form.name.trim(), slug: form.slug, type: form.type, maxDevices: capValue(form.maxDevices) };
}

/** A new tenant's body: the fields that are set (writeBody against nothing), its name and slug always among them. */
export function createBody<B extends { name: string; slug: string }>(
  next: B,
): Partial<B> & Pick<B, 'name' | 'slug'> {
  return { ...writeBody(next, null), name: next.name, slug: next.slug };
}

/** A whole number in a cap field, or an error for anything else; empty is no cap. */
export function capError(value: string): string | undefined {
  return value.trim() && !/^\d+$/.test(value.trim()) ? 'A whole number, or empty for no cap' : undefined;
}

/** The cap a field holds: its whole number, or null (empty) for no cap. */
export function capValue(value: string): number | null {
  return value.trim() ? Number(value.trim()) : null;
}
