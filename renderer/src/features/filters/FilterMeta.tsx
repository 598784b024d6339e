import { useState } from 'react';
import type { FilterConditionGroup } from '../../../../server/contract';
import { Field } from '../../ui/basics';
import { fieldErrors } from '../../lib/forms';
import { ChoiceSelect, nameChoices } from '../../ui';
import type { Lookups } from '../../lib/directory';

// What a saved filter is called and whose it is (spec 2): name 1-200, description up to 1000 and, for partner and
// system callers creating one, the organization it belongs to. Shared by "Save as filter" and the filter editor.

export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 1000;

/**
 * Name, description and organization of a filter being saved, their messages (the server's per-field messages
 * first, then ours once `tried`), and the request body. `needsOrg`: the caller must choose the organization.
 */
export function useFilterMeta({
  name: initialName = '',
  description: initialDescription = '',
  orgId: initialOrgId = '',
  needsOrg,
  error,
}: {
  name?: string;
  description?: string;
  orgId?: string;
  needsOrg: boolean;
  /** The save action's error: field messages land on their fields, anything else is `generalError`. */
  error: unknown;
}) {
  const [name, setName] = useState(initialName);
  const [description, setDescription] = useState(initialDescription);
  const [orgId, setOrgId] = useState(initialOrgId);
  const [tried, setTried] = useState(false);
  const server = fieldErrors(error);

  const nameError =
    server.name ??
    (tried && !name.trim()
      ? 'Enter a name.'
      : name.trim().length > NAME_MAX
        ? `At most ${NAME_MAX} characters.`
        : null);
  const descError =
    server.description ??
    (description.length > DESCRIPTION_MAX ? `At most ${DESCRIPTION_MAX} characters.` : null);
  const orgError =
    server.orgId ?? (tried && needsOrg && !orgId ? 'Choose the organization this filter belongs to.' : null);

  /** Marks the form tried; true when `conditions` are complete and the fields may be sent. */
  const ready = (conditions: FilterConditionGroup | null): conditions is FilterConditionGroup => {
    setTried(true);
    if (!conditions || !name.trim() || name.trim().length > NAME_MAX || description.length > DESCRIPTION_MAX)
      return false;
    return !(needsOrg && !orgId);
  };

  const body = (conditions: FilterConditionGroup): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      name: name.trim(),
      description: description.trim() ? description.trim() : null,
      conditions,
    };
    if (needsOrg) out.orgId = orgId;
    return out;
  };

  return {
    name,
    setName,
    description,
    setDescription,
    orgId,
    setOrgId,
    tried,
    setTried,
    nameError,
    descError,
    orgError,
    /** The error when it is not about one field (shown under the form). */
    generalError: error && Object.keys(server).length === 0 ? error : null,
    ready,
    body,
  };
}

export function FilterNameField({
  id,
  value,
  onChange,
  error,
  maxLength,
  autoFocus,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  maxLength?: number;
  autoFocus?: boolean;
}) {
  return (
    <Field label="Name" htmlFor={id} error={error}>
      <input
        id={id}
        type="text"
        value={value}
        maxLength={maxLength}
        autoFocus={autoFocus}
        onChange={(e) => onChange(e.target.value)}
        placeholder="e.g. Windows servers needing a reboot"
        data-testid={id}
      />
    </Field>
  );
}

export function FilterOrgField({
  id,
  value,
  onChange,
  error,
  hint,
  lookups,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  hint: string;
  lookups: Lookups;
}) {
  return (
    <Field label="Organization" htmlFor={id} error={error} hint={hint}>
      <ChoiceSelect
        id={id}
        value={value}
        onChange={onChange}
        emptyLabel="Choose an organization…"
        options={nameChoices(lookups.orgs)}
        testId={id}
      />
    </Field>
  );
}
