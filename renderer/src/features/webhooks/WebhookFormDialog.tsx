import type { FormEvent } from 'react';
import type { Organization, Webhook } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { FormDialog, OrgChoiceField, TextField, type DialogProps } from '../../ui';
import { webhooksApi } from './api';
import { EventPicker } from './EventPicker';
import { refusalOf, useWebhookForm } from './form-model';
import { HeaderRows } from './HeaderRows';
import { newSigningSecret, useSpansOrganizations } from './model';
import { RetryPolicyFields } from './RetryPolicyFields';

// Create or edit a webhook: organization (partner and system callers), name, HTTPS address, events, custom
// headers and an optional retry policy. A new webhook gets a signing secret made in the browser, which the
// caller shows once; editing never touches the secret (rotation is its own action).

/** A webhook just created, with the signing secret its creator is shown once. */
export interface NewWebhook {
  hook: Webhook;
  secret: string;
}

/** Done with the webhook created, or null once an edit is saved. */
export function WebhookFormDialog({
  orgs,
  editing = null,
  onClose,
  onDone,
}: { orgs: Organization[]; editing?: Webhook | null } & DialogProps<NewWebhook | null>) {
  const spans = useSpansOrganizations();
  const pickOrg = spans && !editing;
  const form = useWebhookForm(editing, orgs.length === 1 ? (orgs[0]?.id ?? '') : '', pickOrg);
  const save = useAsyncAction();
  const refusal = refusalOf(save.error);
  const changes = editing ? form.changes(editing) : null;
  const unchanged = changes !== null && Object.keys(changes).length === 0;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.touch();
    if (save.busy || !form.valid || unchanged) return;
    void save.run(async () => {
      if (editing && changes) {
        await webhooksApi.update(editing.id, changes);
        onDone(null);
        return;
      }
      const secret = newSigningSecret();
      const hook = await webhooksApi.create({
        name: form.name.trim(),
        url: form.url.trim(),
        secret,
        events: [...form.events],
        headers: form.cleanHeaders,
        ...(form.retryPolicy ? { retryPolicy: form.retryPolicy } : {}),
        ...(pickOrg ? { orgId: form.orgId } : {}),
      });
      onDone({ hook, secret });
    });
  };

  return (
    <FormDialog
      wide
      title={editing ? `Edit “${editing.name}”` : 'New webhook'}
      onClose={onClose}
      testId="webhook-form-dialog"
      formClassName="form wh-form"
      onSubmit={onSubmit}
      action={{ busy: save.busy, error: refusal.form }}
      submit={{
        label: editing ? 'Save changes' : 'Create webhook',
        busyLabel: editing ? 'Saving…' : 'Creating…',
        testId: 'webhook-form-submit',
        disabled: unchanged,
      }}
    >
      <div className="form-row">
        {pickOrg ? (
          <OrgChoiceField
            id="webhook-org"
            orgs={orgs}
            value={form.orgId}
            onChange={form.setOrgId}
            error={form.show('orgId')}
          />
        ) : null}
        <TextField
          id="webhook-name"
          label="Name"
          value={form.name}
          onChange={form.setName}
          maxLength={255}
          autoFocus
          placeholder="PSA ticketing"
          error={form.show('name') ?? refusal.name}
        />
      </div>
      <TextField
        id="webhook-url"
        label="Payload URL"
        className="mono"
        value={form.url}
        onChange={form.setUrl}
        maxLength={2048}
        spellCheck={false}
        autoComplete="off"
        error={form.show('url') ?? refusal.url}
        hint="Gatehouse POSTs JSON here, signed with X-Service-Signature. HTTPS only."
      />
      <EventPicker selected={form.events} onChange={form.setEvents} error={form.show('events')} />
      <div className="wh-form-split">
        <HeaderRows
          rows={form.headers}
          onChange={form.setHeaders}
          error={form.show('headers') ?? refusal.headers}
        />
        <RetryPolicyFields
          own={form.ownRetry}
          onOwn={form.setOwnRetry}
          draft={form.retry}
          onDraft={form.setRetry}
          policy={form.retryPolicy}
          error={form.show('retry')}
        />
      </div>
      {!editing ? (
        <p className="muted small">
          A signing secret is generated in this browser when you create the webhook and shown to you once.
        </p>
      ) : null}
    </FormDialog>
  );
}
