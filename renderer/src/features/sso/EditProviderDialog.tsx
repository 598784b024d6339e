import { useState, type FormEvent } from 'react';
import type { SsoProvider } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { queryClient } from '../../lib/query';
import { FormDialog, type DialogProps } from '../../ui';
import { ssoApi, ssoKeys, useOwnerRoles } from './api';
import { draftFromProvider, updateBody, validateDraft } from './model';
import type { OwnerChoice } from './owner';
import { ConnectionFields, RulesFields, type FieldsProps } from './ProviderFields';

// Changing a provider: the same fields as the setup, on one form. Only the changed fields are sent; a new issuer is
// discovered by the server before it is accepted (rule 12), and its refusal shows under the form.

export function EditProviderDialog({
  provider,
  owner,
  issuerTemplate,
  onClose,
}: {
  provider: SsoProvider;
  owner: OwnerChoice;
  issuerTemplate: string | null;
} & Pick<DialogProps, 'onClose'>) {
  const [draft, setDraft] = useState(() => draftFromProvider(provider));
  const [submitted, setSubmitted] = useState(false);
  const roles = useOwnerRoles(owner);
  const save = useAsyncAction();
  const errors = submitted ? validateDraft(draft, provider.hasClientSecret) : {};
  // What both field groups edit, passed to each as one.
  const fields: FieldsProps = { draft: draft, onChange: setDraft, errors };
  const body = updateBody(draft, provider);
  const unchanged = Object.keys(body).length === 0;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(validateDraft(draft, provider.hasClientSecret)).length > 0 || unchanged) return;
    void save.run(async () => {
      await ssoApi.update(provider.id, body);
      await queryClient.invalidateQueries({ queryKey: ssoKeys.all });
      onClose();
    });
  };

  return (
    <FormDialog
      title={`Edit ${provider.name}`}
      onClose={onClose}
      wide
      testId="sso-edit-dialog"
      onSubmit={onSubmit}
      action={save}
      submit={{ label: 'Save changes', testId: 'sso-edit-save', disabled: unchanged }}
    >
      <div className="sso-edit-columns">
        <div className="form">
          <ConnectionFields
            {...fields}
            hasSecret={provider.hasClientSecret}
            issuerTemplate={issuerTemplate}
          />
        </div>
        <div className="form">
          <RulesFields {...fields} owner={owner} roles={roles.data?.data ?? []} />
        </div>
      </div>
    </FormDialog>
  );
}
