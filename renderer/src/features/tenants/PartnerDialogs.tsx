import { useState, type FormEvent } from 'react';
import type { Partner, PartnerPlan, PartnerStatus, PartnerType } from '../../../../server/contract';
import { ApiError } from '../../lib/api/client';
import { ActionError } from '../../ui/ActionError';
import { Dialog } from '../../ui/Dialog';
import { FormButtons } from '../../ui/DialogActions';
import { Alert, Field } from '../../ui/basics';
import { LabelOptions, RadioCards } from '../../ui';
import { SLUG_PATTERN, fieldErrors, slugify } from '../../lib/forms';
import { PARTNER_PLANS, PARTNER_STATUSES, PARTNER_TYPES, partnerStatusOf } from './labels';
import { tenantsApi } from './api';

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

export function PartnerDialog({
  partner,
  onClose,
  onSaved,
}: {
  partner: Partner | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const creating = partner === null;
  const [form, setForm] = useState(() => partnerForm(partner));
  const [slugTouched, setSlugTouched] = useState(!creating);
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<keyof PartnerForm, boolean>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [serverFields, setServerFields] = useState<Record<string, string>>({});

  const errors: Partial<Record<keyof PartnerForm, string>> = {};
  if (!form.name.trim()) errors.name = 'Name is required';
  if (!form.slug) errors.slug = 'Slug is required';
  else if (!SLUG_PATTERN.test(form.slug)) errors.slug = 'Lowercase letters, digits and single hyphens only';
  if (form.maxOrganizations.trim() && !/^\d+$/.test(form.maxOrganizations.trim()))
    errors.maxOrganizations = 'A whole number, or empty for no cap';
  if (form.maxDevices.trim() && !/^\d+$/.test(form.maxDevices.trim()))
    errors.maxDevices = 'A whole number, or empty for no cap';
  if (form.billingEmail.trim() && !EMAIL.test(form.billingEmail.trim()))
    errors.billingEmail = 'Not an email address';
  const show = (key: keyof PartnerForm) =>
    (submitted || touched[key] ? errors[key] : undefined) ?? serverFields[key];

  const set = <K extends keyof PartnerForm>(key: K, value: PartnerForm[K]) => {
    setForm((f) => {
      const next = { ...f, [key]: value };
      if (key === 'name' && !slugTouched) next.slug = slugify(String(value));
      return next;
    });
  };
  const blur = (key: keyof PartnerForm) => setTouched((t) => ({ ...t, [key]: true }));
  const num = (v: string) => (v.trim() ? Number(v.trim()) : null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length) return;
    setBusy(true);
    setError(null);
    setServerFields({});
    try {
      if (creating) {
        const body: Record<string, unknown> = {
          name: form.name.trim(),
          slug: form.slug,
          type: form.type,
          plan: form.plan,
        };
        if (num(form.maxOrganizations) !== null) body.maxOrganizations = num(form.maxOrganizations);
        if (num(form.maxDevices) !== null) body.maxDevices = num(form.maxDevices);
        if (form.billingEmail.trim()) body.billingEmail = form.billingEmail.trim();
        await tenantsApi.createPartner(body);
      } else {
        const before = partnerForm(partner);
        const body: Record<string, unknown> = {};
        if (form.name.trim() !== before.name) body.name = form.name.trim();
        if (form.slug !== before.slug) body.slug = form.slug;
        if (form.type !== before.type) body.type = form.type;
        if (form.plan !== before.plan) body.plan = form.plan;
        if (form.maxOrganizations.trim() !== before.maxOrganizations)
          body.maxOrganizations = num(form.maxOrganizations);
        if (form.maxDevices.trim() !== before.maxDevices) body.maxDevices = num(form.maxDevices);
        if (form.billingEmail.trim() !== before.billingEmail)
          body.billingEmail = form.billingEmail.trim() || null;
        if (Object.keys(body).length === 0) {
          onClose();
          return;
        }
        await tenantsApi.updatePartner(partner.id, body);
      }
      onSaved();
    } catch (err) {
      const fields = fieldErrors(err);
      if (err instanceof ApiError && err.status === 409 && /slug/i.test(err.message))
        fields.slug = err.message;
      setServerFields(fields);
      setError(Object.keys(fields).length ? null : err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      wide
      title={creating ? 'New partner' : `Edit ${partner.name}`}
      onClose={onClose}
      testId="partner-dialog"
      footer={
        <FormButtons
          onCancel={onClose}
          busy={busy}
          label={creating ? 'Create partner' : 'Save changes'}
          form="partner-form"
          testId="partner-save"
        />
      }
    >
      <form id="partner-form" className="adm-dialog-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="adm-form-grid">
          <Field label="Name" htmlFor="partner-name" error={show('name')}>
            <input
              id="partner-name"
              type="text"
              maxLength={255}
              autoFocus
              value={form.name}
              onChange={(e) => set('name', e.target.value)}
              onBlur={() => blur('name')}
              data-testid="partner-name"
            />
          </Field>
          <Field
            label="Slug"
            htmlFor="partner-slug"
            error={show('slug')}
            hint={
              slugTouched
                ? 'URL-safe identifier, unique across partners'
                : 'Derived from the name; edit to override'
            }
          >
            <input
              id="partner-slug"
              type="text"
              className="mono"
              maxLength={100}
              value={form.slug}
              onChange={(e) => {
                setSlugTouched(true);
                set('slug', e.target.value.toLowerCase());
              }}
              onBlur={() => blur('slug')}
              data-testid="partner-slug"
            />
          </Field>
          <Field label="Type" htmlFor="partner-type">
            <select
              id="partner-type"
              value={form.type}
              onChange={(e) => set('type', e.target.value as PartnerType)}
              data-testid="partner-type"
            >
              <LabelOptions options={PARTNER_TYPES} />
            </select>
          </Field>
          <Field label="Plan" htmlFor="partner-plan">
            <select
              id="partner-plan"
              value={form.plan}
              onChange={(e) => set('plan', e.target.value as PartnerPlan)}
              data-testid="partner-plan"
            >
              <LabelOptions options={PARTNER_PLANS} />
            </select>
          </Field>
          <Field
            label="Organization cap"
            htmlFor="partner-max-orgs"
            error={show('maxOrganizations')}
            hint="Empty: no cap"
          >
            <input
              id="partner-max-orgs"
              type="number"
              min={0}
              step={1}
              value={form.maxOrganizations}
              onChange={(e) => set('maxOrganizations', e.target.value)}
              onBlur={() => blur('maxOrganizations')}
              data-testid="partner-max-orgs"
            />
          </Field>
          <Field
            label="Device cap"
            htmlFor="partner-max-devices"
            error={show('maxDevices')}
            hint="Across all organizations. Empty: no cap"
          >
            <input
              id="partner-max-devices"
              type="number"
              min={0}
              step={1}
              value={form.maxDevices}
              onChange={(e) => set('maxDevices', e.target.value)}
              onBlur={() => blur('maxDevices')}
              data-testid="partner-max-devices"
            />
          </Field>
          <div className="full">
            <Field label="Billing email" htmlFor="partner-billing-email" error={show('billingEmail')}>
              <input
                id="partner-billing-email"
                type="email"
                maxLength={255}
                value={form.billingEmail}
                onChange={(e) => set('billingEmail', e.target.value)}
                onBlur={() => blur('billingEmail')}
                data-testid="partner-billing-email"
              />
            </Field>
          </div>
        </div>
        <ActionError error={error} />
      </form>
    </Dialog>
  );
}

export function PartnerStatusDialog({
  partner,
  onClose,
  onSaved,
}: {
  partner: Partner;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [status, setStatus] = useState<PartnerStatus>(partner.status);
  const [acknowledged, setAcknowledged] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const offboarding = status === 'offboarding' && partner.status !== 'offboarding';
  const restoring = partner.status === 'offboarding' && status === 'active';
  const blocking = status !== 'active' && status !== partner.status && !offboarding;
  const unchanged = status === partner.status;

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await tenantsApi.updatePartner(partner.id, { status });
      onSaved();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      title={`Status of ${partner.name}`}
      onClose={onClose}
      testId="partner-status-dialog"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className={`btn ${offboarding || blocking ? 'btn-danger' : 'btn-primary'}`}
            disabled={busy || unchanged || (offboarding && !acknowledged)}
            onClick={() => void save()}
            data-testid="partner-status-save"
          >
            {busy
              ? 'Saving…'
              : offboarding
                ? 'Start offboarding'
                : `Set ${partnerStatusOf(status).label.toLowerCase()}`}
          </button>
        </>
      }
    >
      <div className="adm-dialog-form">
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
            <label className="check">
              <input
                type="checkbox"
                checked={acknowledged}
                onChange={(e) => setAcknowledged(e.target.checked)}
                data-testid="offboarding-ack"
              />
              <span>I understand that everyone at {partner.name} loses access now.</span>
            </label>
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
