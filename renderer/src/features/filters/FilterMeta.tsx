import { useState } from 'react';
import {
  SAVED_FILTER_LIMITS,
  type FilterConditionGroup,
  type SaveFilterBody,
} from '../../../../server/contract';
import { Field } from '../../ui/basics';
import { fieldErrors } from '../../lib/forms';
import { ChoiceSelect, TextField, nameChoices } from '../../ui';
import type { Lookups } from '../../lib/directory';

// What a saved filter is called and whose it is (spec 2): name 1-200, description up to 1000 and, for partner and
// system callers creating one, the organization it belongs to. Shared by "Save as filter" and the filter editor.

const { name: NAME_MAX, description: DESCRIPTION_MAX } = SAVED_FILTER_LIMITS;

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

  const body = (conditions: FilterConditionGroup): SaveFilterBody => {
    const out: SaveFilterBody = {
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

export type FilterMeta = ReturnType<typeof useFilterMeta>;

/**
 * The name, description and (when `needsOrg`) organization fields of `meta`, with ids `<idPrefix>-name` and so
 * on. `dialog`: the "Save as filter" form, with the name focused and a multi-line description that counts.
 */
export function FilterMetaFields({
  idPrefix,
  meta,
  needsOrg,
  lookups,
  orgHint,
  dialog = false,
}: {
  idPrefix: string;
  meta: FilterMeta;
  needsOrg: boolean;
  lookups: Lookups;
  orgHint: string;
  dialog?: boolean;
}) {
  const descriptionId = `${idPrefix}-description`;
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label="Name"
        type="text"
        value={meta.name}
        maxLength={dialog ? NAME_MAX + 20 : undefined}
        autoFocus={dialog}
        onChange={meta.setName}
        placeholder="e.g. Windows servers needing a reboot"
        error={meta.nameError}
      />
      {dialog ? (
        <Field
          label="Description"
          htmlFor={descriptionId}
          error={meta.descError}
          hint={`Optional. ${meta.description.length}/${DESCRIPTION_MAX}`}
        >
          <textarea
            id={descriptionId}
            value={meta.description}
            rows={3}
            onChange={(e) => meta.setDescription(e.target.value)}
            data-testid={descriptionId}
          />
        </Field>
      ) : (
        <TextField
          id={descriptionId}
          label="Description"
          type="text"
          value={meta.description}
          onChange={meta.setDescription}
          placeholder="Optional"
          error={meta.descError}
        />
      )}
      {needsOrg ? (
        <Field label="Organization" htmlFor={`${idPrefix}-org`} error={meta.orgError} hint={orgHint}>
          <ChoiceSelect
            id={`${idPrefix}-org`}
            value={meta.orgId}
            onChange={meta.setOrgId}
            emptyLabel="Choose an organization…"
            options={nameChoices(lookups.orgs)}
            testId={`${idPrefix}-org`}
          />
        </Field>
      ) : null}
    </>
  );
}
