import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../lib/errors';
import { useFormSubmit } from '../../lib/form-submit';
import { slugify } from '../../lib/forms';
import { FormDialog, LabelOptions, SelectField, TextField } from '../../ui';

// What the partner and organization dialogs share: one form state (values, a slug derived from the name until it
// is edited, errors shown after a blur or a submit, the server's refusals on their fields), the name and slug
// fields, and the optional whole-number caps.

type Errors<F> = Partial<Record<keyof F & string, string>>;

export function useTenantForm<F extends { name: string; slug: string }>(
  initial: () => F,
  creating: boolean,
  validate: (form: F) => Errors<F>,
) {
  const [form, setForm] = useState<F>(initial);
  const [slugTouched, setSlugTouched] = useState(!creating);
  const check = useFormSubmit(validate(form), takenSlug);

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

  const { show, blur, busy, error, serverFields, submit } = check;
  return { form, set, blur, show, slugTouched, editSlug, deriveSlug, busy, error, serverFields, submit };
}

/** A 409 about the slug (taken) lands on the slug field. */
function takenSlug(err: unknown): Record<string, string> {
  return err instanceof ApiError && err.status === 409 && /slug/i.test(err.message) ? { slug: err.message } : {};
}

export type TenantForm<F extends { name: string; slug: string }> = ReturnType<typeof useTenantForm<F>>;

/**
 * The dialog around a tenant form (`<idPrefix>-dialog`, `<idPrefix>-form`, its submit `<idPrefix>-save`): "New
 * <noun>" or "Edit <name>", the form's fields, and the error of a save that names no field.
 */
export function TenantFormDialog<F extends { name: string; slug: string }>({
  idPrefix,
  noun,
  editing,
  tenant,
  onSubmit,
  onClose,
  children,
}: {
  idPrefix: string;
  noun: string;
  /** The name of the tenant edited (null: a new one). */
  editing: string | null;
  tenant: TenantForm<F>;
  onSubmit: (event: FormEvent) => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <FormDialog
      wide
      title={editing === null ? `New ${noun}` : `Edit ${editing}`}
      onClose={onClose}
      testId={`${idPrefix}-dialog`}
      formId={`${idPrefix}-form`}
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      busy={tenant.busy}
      error={tenant.error}
      submitLabel={editing === null ? `Create ${noun}` : 'Save changes'}
      submitTestId={`${idPrefix}-save`}
    >
      {children}
    </FormDialog>
  );
}

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
  const { form, set, blur, show, slugTouched, editSlug, deriveSlug } = tenant;
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label="Name"
        error={show('name')}
        type="text"
        maxLength={255}
        autoFocus
        value={form.name}
        onChange={(v) => set('name', v as F['name'])}
        onBlur={() => blur('name')}
      />
      <TextField
        id={`${idPrefix}-slug`}
        label="Slug"
        error={show('slug')}
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
        value={form.slug}
        onChange={editSlug}
        onBlur={() => blur('slug')}
      />
    </>
  );
}

/** The fields of a tenant form whose values are strings (caps, choices). */
type TextKey<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F] & string;

/** A whole-number cap, empty for none, bound to one field of the tenant form. */
export function CapField<F extends { name: string; slug: string }>({
  tenant,
  field,
  id,
  label,
  hint,
}: {
  tenant: TenantForm<F>;
  field: TextKey<F>;
  id: string;
  label: string;
  hint: string;
}) {
  return (
    <TextField
      id={id}
      label={label}
      error={tenant.show(field)}
      hint={hint}
      type="number"
      min={0}
      step={1}
      inputMode="numeric"
      value={tenant.form[field] as string}
      onChange={(v) => tenant.set(field, v as F[typeof field])}
      onBlur={() => tenant.blur(field)}
    />
  );
}

/** A choice among labelled options, bound to one field of the tenant form. */
export function ChoiceField<F extends { name: string; slug: string }, K extends TextKey<F>>({
  tenant,
  field,
  id,
  label,
  options,
}: {
  tenant: TenantForm<F>;
  field: K;
  id: string;
  label: string;
  options: Array<{ value: F[K] & string; label: string }>;
}) {
  return (
    <SelectField
      id={id}
      label={label}
      error={tenant.show(field)}
      value={tenant.form[field] as string}
      onChange={(v) => tenant.set(field, v as F[K])}
    >
      <LabelOptions options={options} />
    </SelectField>
  );
}

/** A whole number in a cap field, or an error for anything else; empty is no cap. */
export function capError(value: string): string | undefined {
  return value.trim() && !/^\d+$/.test(value.trim()) ? 'A whole number, or empty for no cap' : undefined;
}

/** The cap a field holds: its whole number, or null (empty) for no cap. */
export function capValue(value: string): number | null {
  return value.trim() ? Number(value.trim()) : null;
}
