import { useState, type FormEvent } from 'react';
import type { FilterConditionGroup, SavedFilter } from '../../../../server/contract';
import { api } from '../../api/client';
import { ActionError } from '../../components/ActionError';
import { Dialog } from '../../components/Dialog';
import { FormButtons } from '../../components/DialogActions';
import { Field } from '../../components/ui';
import { useSession } from '../../session/store';
import { useAsyncAction } from '../../lib/action';
import { fieldErrors } from '../tenants/admin-kit';
import type { Lookups } from './lookups';

// "Save as filter": name (1-200), description (up to 1000) and, for partner and system callers, the organization
// the filter belongs to (spec 2: required for them, ignored for organization scope).

export const NAME_MAX = 200;
export const DESCRIPTION_MAX = 1000;

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
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [orgId, setOrgId] = useState(defaultOrgId ?? '');
  const [tried, setTried] = useState(false);
  const action = useAsyncAction();
  const server = fieldErrors(action.error);

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

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!conditions || !name.trim() || name.trim().length > NAME_MAX || description.length > DESCRIPTION_MAX)
      return;
    if (needsOrg && !orgId) return;
    void action.run(async () => {
      const body: Record<string, unknown> = {
        name: name.trim(),
        description: description.trim() ? description.trim() : null,
        conditions,
      };
      if (needsOrg) body.orgId = orgId;
      const saved = await api<SavedFilter>('/filters', { method: 'POST', body });
      onSaved(saved);
    });
  };

  return (
    <Dialog
      open={open}
      title="Save as filter"
      onClose={onClose}
      testId="filter-save-dialog"
      footer={
        <FormButtons
          onCancel={onClose}
          busy={action.busy}
          label="Save filter"
          testId="filter-save-submit"
          form="filter-save-form"
          disabled={!conditions}
        />
      }
    >
      <form id="filter-save-form" className="form adm" onSubmit={submit} noValidate>
        {!conditions ? <div className="fb-problem">Finish every condition before saving.</div> : null}
        <Field label="Name" htmlFor="filter-save-name" error={nameError}>
          <input
            id="filter-save-name"
            type="text"
            value={name}
            maxLength={NAME_MAX + 20}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. Windows servers needing a reboot"
            data-testid="filter-save-name"
          />
        </Field>
        <Field
          label="Description"
          htmlFor="filter-save-description"
          error={descError}
          hint={`Optional. ${description.length}/${DESCRIPTION_MAX}`}
        >
          <textarea
            id="filter-save-description"
            value={description}
            rows={3}
            onChange={(e) => setDescription(e.target.value)}
            data-testid="filter-save-description"
          />
        </Field>
        {needsOrg ? (
          <Field
            label="Organization"
            htmlFor="filter-save-org"
            error={orgError}
            hint="Everyone with access to this organization can use the filter."
          >
            <select
              id="filter-save-org"
              value={orgId}
              onChange={(e) => setOrgId(e.target.value)}
              data-testid="filter-save-org"
            >
              <option value="">Choose an organization…</option>
              {lookups.orgs.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <ActionError error={action.error && Object.keys(server).length === 0 ? action.error : null} />
      </form>
    </Dialog>
  );
}
