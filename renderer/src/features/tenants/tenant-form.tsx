import { useState } from 'react';
import { ApiError } from '../../lib/errors';
import { useFormSubmit } from '../../lib/form-submit';
import { slugify } from '../../lib/forms';
import { nameSlugErrors } from './tenant-rules';
import { LabelOptions, SelectField, TextField } from '../../ui';

// What the partner and organization dialogs share: one form state (values, a slug derived from the name until it
// is edited, the name and slug checked, errors shown after a blur or a submit, the server's refusals on their
// fields), the name and slug fields, and the cap and choice fields bound to it (the plain rules: tenant-rules.ts).

type Errors<F> = Partial<Record<keyof F & string, string>>;

/** The fields of a tenant form whose values are strings (names, dates, caps, choices). */
type TextKey<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F] & string;

export function useTenantForm<F extends { name: string; slug: string }>(
  initial: () => F,
  creating: boolean,
  validate: (form: F) => Errors<F>,
) {
  const [form, setForm] = useState<F>(initial);
  const [slugTouched, setSlugTouched] = useState(!creating);
  const check = useFormSubmit({ ...nameSlugErrors(form), ...validate(form) }, takenSlug);

  const set = <K extends keyof F & string>(key: K, value: F[K]) => {
    setForm((f) => {
      const next = { ...f, [key]: value };
      if (key === 'name' && !slugTouched) next.slug = slugify(String(value));
      return next;
    });
    check.clearRefusal(key);
  };
  const editSlug = (slug: string) => {
    setSlugTouched(true);
    set('slug', slug.toLowerCase());
  };
  const deriveSlug = () => {
    setSlugTouched(false);
    set('slug', slugify(form.name));
  };

  /** The value, edits, blur and message of one text field, to spread onto its input. */
  const field = (key: TextKey<F> | 'name' | 'slug') =>
    check.bound(key, form[key] as string, (value) => set(key, value as F[typeof key]));

  const { show, blur, busy, error, serverFields, submit } = check;
  return {
    form,
    set,
    field,
    blur,
    show,
    slugTouched,
    editSlug,
    deriveSlug,
    busy,
    error,
    serverFields,
    submit,
  };
}

/** A 409 about the slug (taken) lands on the slug field. */
function takenSlug(err: unknown): Record<string, string> {
  return err instanceof ApiError && err.status === 409 && /slug/i.test(err.message)
    ? { slug: err.message }
    : {};
}

export type TenantForm<F extends { name: string; slug: string }> = ReturnType<typeof useTenantForm<F>>;

/** The name and the slug (`<idPrefix>-name`, `<idPrefix>-slug`); a new tenant can derive the slug again. */
export function NameSlugFields<F extends { name: string; slug: string }>({
  idPrefix,
  tenant,
  slugHint,
  canDerive = false,
}: {
  idPrefix: string;
  tenant: TenantForm<F>;
  /** Shown once the slug was edited by hand. */
  slugHint: string;
  /** Offer "Derive from name" once the slug was edited by hand. */
  canDerive?: boolean;
}) {
  const { slugTouched, editSlug, deriveSlug } = tenant;
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label="Name"
        type="text"
        maxLength={255}
        autoFocus
        {...tenant.field('name')}
      />
      <TextField
        id={`${idPrefix}-slug`}
        label="Slug"
        hint={slugTouched ? slugHint : 'Derived from the name; edit to override'}
        aside={
          slugTouched && canDerive ? (
            <button type="button" className="link small" onClick={deriveSlug}>
              Derive from name
            </button>
          ) : null
        }
        type="text"
        className="mono"
        maxLength={100}
        {...tenant.field('slug')}
        onChange={editSlug}
      />
    </>
  );
}

/** What a field bound to the tenant form takes (`tenant.field(key)` spread) beside its id and label. */
type BoundProps = ReturnType<TenantForm<{ name: string; slug: string }>['field']> & {
  id: string;
  label: string;
};

/** A whole-number cap, empty for none. */
export function CapField({ hint, ...field }: BoundProps & { hint: string }) {
  return <TextField hint={hint} type="number" min={0} step={1} inputMode="numeric" {...field} />;
}

/** A choice among labelled options. */
export function ChoiceField<V extends string>({
  options,
  ...field
}: BoundProps & { options: Array<{ value: V; label: string }> }) {
  return (
    <SelectField {...field}>
      <LabelOptions options={options} />
    </SelectField>
  );
}
