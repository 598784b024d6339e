import { Field } from './basics';
import { ChoiceSelect, nameChoices } from './controls';

/**
 * The organization a new thing belongs to, where the caller has several: "Organization" over a select of them
 * (`id` is also its test id) that asks for a choice until one is made.
 */
export function OrgChoiceField({
  id,
  orgs,
  value,
  onChange,
  error,
}: {
  id: string;
  orgs: ReadonlyArray<{ id: string; name: string }>;
  value: string;
  onChange: (orgId: string) => void;
  error?: string | null;
}) {
  return (
    <Field label="Organization" htmlFor={id} error={error}>
      <ChoiceSelect
        id={id}
        value={value}
        onChange={onChange}
        emptyLabel={value ? null : 'Choose an organization…'}
        options={nameChoices(orgs)}
        testId={id}
      />
    </Field>
  );
}
