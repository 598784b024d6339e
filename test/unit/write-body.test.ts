import { describe, expect, it } from 'vitest';
import { writeBody } from '../../renderer/src/lib/write-body';

// The create-or-edit body of the tenant dialogs: a create leaves unset fields to the server, an edit sends only
// what changed (an untouched field is never written over).

describe('writeBody', () => {
  const form = { name: 'Acme', slug: 'acme', maxDevices: null as number | null, billingEmail: 'a@b.co' };

  it('a create sends every set field and leaves null ones out', () => {
    expect(writeBody(form, null)).toEqual({ name: 'Acme', slug: 'acme', billingEmail: 'a@b.co' });
  });

  it('an edit sends only the changed fields, a cleared one as null', () => {
    const before = { ...form, maxDevices: 50 };
    expect(writeBody({ ...form, name: 'Acme Ltd' }, before)).toEqual({ name: 'Acme Ltd', maxDevices: null });
  });

  it('an edit with nothing changed sends an empty body', () => {
    expect(writeBody(form, { ...form })).toEqual({});
  });
});
