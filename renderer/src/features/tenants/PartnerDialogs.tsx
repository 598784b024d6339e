import { useState } from 'react';
import type { Partner, PartnerPlan, PartnerStatus, PartnerType } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { writeBody } from '../../lib/write-body';
import {
  ActionError,
  Alert,
  Check,
  Dialog,
  DialogButtons,
  type DialogProps,
  EditorDialog,
  type EditorTexts,
  RadioCards,
  TextField,
} from '../../ui';
import { tenantsApi } from './api';
import { PARTNER_PLANS, PARTNER_STATUSES, PARTNER_TYPES, partnerStatusOf } from './labels';
import { CapField, ChoiceField, NameSlugFields, useTenantForm } from './tenant-form';
import { capError, capValue, createBody, tenantBody } from './tenant-rules';

// The partner dialogs: create/edit a partner, and change its status.

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function capsText(p: Partner): string {
  const parts: string[] = [];
  if (p.maxOrganizations !== null) parts.push(`${p.maxOrganizations} orgs`);
  if (p.maxDevices !== null) parts.push(`${p.maxDevices} devices`);
  return parts.length ? parts.join(' · ') : '—';
}

export interface PartnerForm {
  name: string;
  slug: string;
  type: PartnerType;
  plan: PartnerPlan;
  maxOrganizations: string;
  maxDevices: string;
  billingEmail: string;
}

export function partnerForm(p: Partner | null): PartnerForm {
  return {
    name: p?.name ?? '',
    slug: p?.slug ?? '',
    type: p?.type ?? 'msp',
    plan: p?.plan ?? 'free',
    maxOrganizations: p?.maxOrganizations == null ? '' : String(p.maxOrganizations),
    maxDevices: p?.maxDevices == null ? '' : String(p.maxDevices),
    billingEmail: p?.billingEmail ?? '',
  };
}

/** What the form writes: trimmed text, caps as numbers, an empty billing email as none. */
function partnerBody(form: PartnerForm) {
  return {
    ...tenantBody(form),
    plan: form.plan,
    maxOrganizations: capValue(form.maxOrganizations),
    billingEmail: form.billingEmail.trim() || null,
  };
}

function validatePartner(form: PartnerForm): Partial<Record<keyof PartnerForm, string>> {
  const errors: Partial<Record<keyof PartnerForm, string>> = {};
  errors.maxOrganizations = capError(form.maxOrganizations);
  errors.maxDevices = capError(form.maxDevices);
  if (form.billingEmail.trim() && !EMAIL.test(form.billingEmail.trim()))
    errors.billingEmail = 'Not an email address';
  return errors;
}

const PARTNER_DIALOG: EditorTexts = {
  idPrefix: 'partner',
  createTitle: 'New partner',
  createLabel: 'Create partner',
};

export function PartnerDialog({ partner, onClose, onDone }: { partner: Partner | null } & DialogProps) {
  const creating = partner === null;
  const tenant = useTenantForm(() => partnerForm(partner), creating, validatePartner);
  const { form } = tenant;

  const submit = tenant.submit(async () => {
    if (creating) await tenantsApi.createPartner(createBody(partnerBody(form)));
    else {
      const body = writeBody(partnerBody(form), partnerBody(partnerForm(partner)));
      if (Object.keys(body).length === 0) {
        onClose();
        return;
      }
      await tenantsApi.updatePartner(partner.id, body);
    }
    onDone();
  });

  return (
    <EditorDialog texts={PARTNER_DIALOG} editing={partner} state={tenant} onSubmit={submit} onClose={onClose}>
      <div className="adm-form-grid">
        <NameSlugFields
          idPrefix="partner"
          tenant={tenant}
          slugHint="URL-safe identifier, unique across partners"
        />
        <ChoiceField id="partner-type" label="Type" options={PARTNER_TYPES} {...tenant.field('type')} />
        <ChoiceField id="partner-plan" label="Plan" options={PARTNER_PLANS} {...tenant.field('plan')} />
        <CapField
          id="partner-max-orgs"
          label="Organization cap"
          hint="Empty: no cap"
          {...tenant.field('maxOrganizations')}
        />
        <CapField
          id="partner-max-devices"
          label="Device cap"
          hint="Across all organizations. Empty: no cap"
          {...tenant.field('maxDevices')}
        />
        <div className="full">
          <TextField
            id="partner-billing-email"
            label="Billing email"
            type="email"
            maxLength={255}
            {...tenant.field('billingEmail')}
          />
        </div>
      </div>
    </EditorDialog>
  );
}

export function PartnerStatusDialog({ partner, onClose, onDone }: { partner: Partner } & DialogProps) {
  const [status, setStatus] = useState<PartnerStatus>(partner.status);
  const [acknowledged, setAcknowledged] = useState(false);
  const action = useAsyncAction();
  const { busy, error } = action;
  const offboarding = status === 'offboarding' && partner.status !== 'offboarding';
  const restoring = partner.status === 'offboarding' && status === 'active';
  const blocking = status !== 'active' && status !== partner.status && !offboarding;
  const unchanged = status === partner.status;

  const save = () =>
    action.run(async () => {
      await tenantsApi.updatePartner(partner.id, { status });
      onDone();
    });

  return (
    <Dialog
      open
      title={`Status of ${partner.name}`}
      onClose={onClose}
      testId="partner-status-dialog"
      footer={
        <DialogButtons
          onCancel={onClose}
          onAction={() => void save()}
          busy={busy}
          label={offboarding ? 'Start offboarding' : `Set ${partnerStatusOf(status).label.toLowerCase()}`}
          disabled={unchanged || (offboarding && !acknowledged)}
          danger={offboarding || blocking}
          testId="partner-status-save"
        />
      }
    >
      <div className="form">
        <div className="tn-status-list" role="radiogroup" aria-label="Partner status">
          <RadioCards
            name="partner-status"
            className="tn-status-option"
            options={PARTNER_STATUSES.map((s) => ({ value: s.value, title: s.label, desc: s.effect }))}
            value={status}
            current={partner.status}
            onChange={(value) => {
              setStatus(value);
              setAcknowledged(false);
            }}
            testId={(value) => `partner-status-${value}`}
          />
        </div>

        {offboarding ? (
          <div className="tn-offboard" data-testid="offboarding-warning">
            <Alert tone="danger">
              <strong>Offboarding takes effect immediately.</strong> Every user, API key and OAuth grant under
              every organization of {partner.name} is revoked at once. Agents stay connected only to send
              heartbeats and collect their self-uninstall command; live connections are refused. When every
              device has uninstalled, or the drain window ends (72 hours by default), the partner becomes
              churned and the remaining agent credentials are cut. Until then, setting the status back to
              active restores access.
            </Alert>
            <Check checked={acknowledged} onChange={setAcknowledged} testId="offboarding-ack">
              I understand that everyone at {partner.name} loses access now.
            </Check>
          </div>
        ) : restoring ? (
          <Alert tone="info">
            Back to active before the drain window ends: uninstalls not yet collected are cancelled and access
            is restored partner-wide.
          </Alert>
        ) : blocking ? (
          <Alert tone="warning">Every user of {partner.name} is refused on their next request.</Alert>
        ) : null}
        <ActionError error={error} />
      </div>
    </Dialog>
  );
}
