import type { FormEvent } from 'react';
import type { FilterConditionGroup, SavedFilter } from '../../../../server/contract';

import { FormDialog } from '../../ui/FormDialog';
import { Field } from '../../ui/basics';
import { useSession } from '../../lib/session';
import { useAsyncAction } from '../../lib/action';
import { DESCRIPTION_MAX, FilterNameField, FilterOrgField, NAME_MAX, useFilterMeta } from './FilterMeta';
import type { Lookups } from '../../lib/directory';
import { filtersApi } from './api';

// "Save as filter" from the device list: name, description and, for partner and system callers, the organization
// the filter belongs to (spec 2: required for them, ignored for organization scope).

export function SaveFilterDialog({
  open,
  conditions,
  lookups,
  defaultOrgId,
  onClose,
  onSaved,
}: {
  open: boolean;
  conditions: FilterConditionGroup | null;
  lookups: Lookups;
  defaultOrgId?: string;
  onClose: () => void;
  onSaved: (filter: SavedFilter) => void;
}) {
  const scope = useSession((s) => s.user?.scope ?? 'organization');
  const needsOrg = scope !== 'organization';
  const action = useAsyncAction();
  const meta = useFilterMeta({ orgId: defaultOrgId, needsOrg, error: action.error });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!meta.ready(conditions)) return;
    void action.run(async () => {
      const saved = await filtersApi.create(meta.body(conditions));
      onSaved(saved);
    });
  };

  return (
    <FormDialog
      open={open}
      title="Save as filter"
      onClose={onClose}
      testId="filter-save-dialog"
      formId="filter-save-form"
      formClassName="form adm"
      noValidate
      onSubmit={submit}
      busy={action.busy}
      error={meta.generalError}
      submitLabel="Save filter"
      submitTestId="filter-save-submit"
      submitDisabled={!conditions}
    >
      {!conditions ? <div className="fb-problem">Finish every condition before saving.</div> : null}
      <FilterNameField
        id="filter-save-name"
        value={meta.name}
        onChange={meta.setName}
        error={meta.nameError}
        maxLength={NAME_MAX + 20}
        autoFocus
      />
      <Field
        label="Description"
        htmlFor="filter-save-description"
        error={meta.descError}
        hint={`Optional. ${meta.description.length}/${DESCRIPTION_MAX}`}
      >
        <textarea
          id="filter-save-description"
          value={meta.description}
          rows={3}
          onChange={(e) => meta.setDescription(e.target.value)}
          data-testid="filter-save-description"
        />
      </Field>
      {needsOrg ? (
        <FilterOrgField
          id="filter-save-org"
          value={meta.orgId}
          onChange={meta.setOrgId}
          error={meta.orgError}
          hint="Everyone with access to this organization can use the filter."
          lookups={lookups}
        />
      ) : null}
    </FormDialog>
  );
}
