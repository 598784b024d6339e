import { useState, type FormEvent } from 'react';
import type { DeviceGroup } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { useOrganizations, useSites } from '../../lib/directory';
import {
  ChoiceSelect,
  Field,
  FormDialog,
  nameChoices,
  OrgChoiceField,
  TextField,
  type DialogProps,
} from '../../ui';
import { groupsApi, refreshGroups } from './api';

// Create or edit a device group: its organization (chosen once, at creation, by callers who span several), an
// optional site of that organization, a name and a description.

export function GroupFormDialog({
  editing = null,
  onClose,
  onDone,
}: { editing?: DeviceGroup | null } & DialogProps<DeviceGroup>) {
  const { orgs } = useOrganizations();
  const [orgId, setOrgId] = useState(editing?.orgId ?? (orgs.length === 1 ? (orgs[0]?.id ?? '') : ''));
  const [siteId, setSiteId] = useState(editing?.siteId ?? '');
  /** A site belongs to one organization: another organization clears it. */
  const pickOrg = (id: string) => {
    setOrgId(id);
    setSiteId('');
  };
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [tried, setTried] = useState(false);
  const sites = useSites(orgId || null, Boolean(orgId));
  const save = useAsyncAction();
  const effectiveOrg = orgId || (orgs.length === 1 ? (orgs[0]?.id ?? '') : '');
  const nameError = tried && !name.trim() ? 'Name the group' : null;
  const orgError = tried && !effectiveOrg ? 'Choose an organization' : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (save.busy || !name.trim() || !effectiveOrg) return;
    const body = { name: name.trim(), description: description.trim() || null, siteId: siteId || null };
    void save.run(async () => {
      const group = editing
        ? await groupsApi.update(editing.id, body)
        : await groupsApi.create({ ...body, orgId: effectiveOrg });
      await refreshGroups();
      onDone(group);
    });
  };

  return (
    <FormDialog
      title={editing ? `Edit “${editing.name}”` : 'New device group'}
      onClose={onClose}
      testId="group-form-dialog"
      onSubmit={onSubmit}
      action={save}
      submit={{
        label: editing ? 'Save changes' : 'Create group',
        busyLabel: editing ? 'Saving…' : 'Creating…',
        testId: 'group-form-submit',
      }}
    >
      {!editing && orgs.length > 1 ? (
        <OrgChoiceField id="group-org" orgs={orgs} value={orgId} onChange={pickOrg} error={orgError} />
      ) : null}
      <TextField
        id="group-name"
        label="Name"
        value={name}
        onChange={setName}
        maxLength={255}
        autoFocus
        placeholder="Front desk PCs"
        error={nameError}
      />
      <Field
        label="Site (optional)"
        htmlFor="group-site"
        hint="A group tied to a site can be managed by technicians limited to that site."
      >
        <ChoiceSelect
          id="group-site"
          value={siteId}
          onChange={setSiteId}
          emptyLabel="Whole organization"
          options={nameChoices(sites.data ?? [])}
          disabled={!effectiveOrg}
          testId="group-site"
        />
      </Field>
      <TextField
        id="group-description"
        label="Description (optional)"
        value={description}
        onChange={setDescription}
        maxLength={2000}
      />
    </FormDialog>
  );
}
