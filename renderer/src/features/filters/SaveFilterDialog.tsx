import type { FormEvent } from 'react';
import type { FilterConditionGroup, SavedFilter } from '../../../../server/contract';

import type { DialogProps } from '../../ui/Dialog';
import { FormDialog } from '../../ui/FormDialog';
import { useSession } from '../../lib/session';
import { useAsyncAction } from '../../lib/action';
import { FilterMetaFields, useFilterMeta } from './FilterMeta';
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
  onDone,
}: {
  open: boolean;
  conditions: FilterConditionGroup | null;
  lookups: Lookups;
  defaultOrgId?: string;
} & DialogProps<SavedFilter>) {
  const scope = useSession((s) => s.user?.scope ?? 'organization');
  const needsOrg = scope !== 'organization';
  const action = useAsyncAction();
  const meta = useFilterMeta({ orgId: defaultOrgId, needsOrg, error: action.error });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!meta.ready(conditions)) return;
    void action.run(async () => {
      onDone(await filtersApi.create(meta.body(conditions)));
    });
  };

  return (
    <FormDialog
      open={open}
      title="Save as filter"
      onClose={onClose}
      testId="filter-save-dialog"
      formClassName="form adm"
      onSubmit={submit}
      action={{ busy: action.busy, error: meta.generalError }}
      submit={{ label: 'Save filter', testId: 'filter-save-submit', disabled: !conditions }}
    >
      {!conditions ? <div className="fb-problem">Finish every condition before saving.</div> : null}
      <FilterMetaFields
        idPrefix="filter-save"
        meta={meta}
        needsOrg={needsOrg}
        lookups={lookups}
        orgHint="Everyone with access to this organization can use the filter."
        dialog
      />
    </FormDialog>
  );
}
