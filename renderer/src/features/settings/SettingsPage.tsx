import { useState } from 'react';
import type { Partner } from '../../../../server/contract';
import { navigate, usePathname } from '../../lib/router';
import { ActionError } from '../../ui/ActionError';
import { ConfirmDialog } from '../../ui/Dialog';
import { Alert } from '../../ui/basics';
import { useDocumentTitle } from '../../lib/hooks';
import {
  Button,
  ButtonLink,
  EmptyState,
  LoadFailure,
  LoadingBlock,
  PageHeader,
  sectionTabs,
  Tabs,
} from '../../ui';

import { useScope } from '../../lib/session';
import {
  buildPatch,
  changedSections,
  cleanAllowlist,
  draftOf,
  mapServerError,
  sectionOfField,
  validateDraft,
  type Draft,
  type SectionId,
} from './model';
import { ContactSection, HoursSection } from './HoursSection';
import { GeneralSection, ServiceSection } from './sections';
import { SecuritySection } from './SecuritySection';
import { BackupsCard } from './BackupsCard';
import { settingsApi } from './api';
import './settings.css';
import { useOwnPartner } from '../../lib/directory';

const SECTIONS: Array<{ id: SectionId; path: string; label: string }> = [
  { id: 'general', path: '/settings', label: 'General' },
  { id: 'hours', path: '/settings/hours', label: 'Business hours' },
  { id: 'contact', path: '/settings/contact', label: 'Contact' },
  { id: 'security', path: '/settings/security', label: 'Security' },
  { id: 'service', path: '/settings/service', label: 'Service management' },
];

export function SettingsPage() {
  useDocumentTitle('Settings');
  const scope = useScope();
  return (
    <div className="page adm" data-testid="settings-page">
      {scope === 'partner' ? <PartnerSettingsLoader /> : <NoPartnerSettings scope={scope} />}
    </div>
  );
}

/** Why there are no partner settings here, by scope: whose they are, and where to go instead. */
const NO_PARTNER_SETTINGS = {
  system: {
    title: 'Partner settings belong to each partner',
    link: { to: '/tenants/partners', icon: 'tenants', label: 'Open partners' },
    text: (
      <>
        Your account is a platform administrator account, which has no partner of its own. Each partner&apos;s
        administrators keep its time zone, business hours, contact and IP allowlist here. Name, plan, caps and
        status of any partner are under Tenants → Partners.
      </>
    ),
  },
  other: {
    title: "Your organization's settings are managed by your partner",
    link: { to: '/profile', icon: 'profile', label: 'Your profile' },
    text: (
      <>
        Business hours, contact details and the IP allowlist are set by the partner (your service provider)
        that manages your organization, and so is its sign-in policy. Your own name, password and two-step
        verification are on your profile.
      </>
    ),
  },
} as const;

function NoPartnerSettings({ scope }: { scope: string | null }) {
  const why = NO_PARTNER_SETTINGS[scope === 'system' ? 'system' : 'other'];
  return (
    <>
      <PageHeader
        title="Settings"
        sub="Partner settings: general, business hours, contact, security and service management."
      />
      <EmptyState
        icon="settings"
        title={why.title}
        testId="settings-not-partner"
        action={
          <ButtonLink to={why.link.to} tone="secondary" icon={why.link.icon} small>
            {why.link.label}
          </ButtonLink>
        }
      >
        {why.text}
      </EmptyState>
      {scope === 'system' ? <BackupsCard /> : null}
    </>
  );
}

function PartnerSettingsLoader() {
  const me = useOwnPartner();
  const [saved, setSaved] = useState<Partner | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const partner = saved && me.data && saved.updatedAt >= me.data.updatedAt ? saved : (me.data ?? saved);

  if (me.loading && !partner) return <LoadingBlock label="Loading settings…" />;
  if (!partner)
    return (
      <>
        <PageHeader title="Settings" />
        <LoadFailure
          error={me.error}
          onRetry={me.reload}
          forbiddenTitle="Partner settings are not available to your account"
          forbiddenText="Reading partner settings needs permission to view organizations."
        />
      </>
    );
  return (
    <PartnerSettingsForm
      key={partner.updatedAt}
      partner={partner}
      notice={notice}
      onDismissNotice={() => setNotice(null)}
      onSaved={(next) => {
        setSaved(next);
        setNotice('Settings saved.');
      }}
    />
  );
}

function PartnerSettingsForm({
  partner,
  notice,
  onDismissNotice,
  onSaved,
}: {
  partner: Partner;
  notice: string | null;
  onDismissNotice: () => void;
  onSaved: (partner: Partner) => void;
}) {
  const pathname = usePathname();
  const section =
    SECTIONS.find((s) => s.path === pathname)?.id ?? (pathname === '/settings/general' ? 'general' : null);
  const [baseline] = useState(() => draftOf(partner));
  const [draft, setDraft] = useState(baseline);
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const [callerIp, setCallerIp] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const changed = changedSections(baseline, draft);
  const dirty = changed.size > 0;
  const clientErrors = validateDraft(draft);
  const invalid = Object.keys(clientErrors).length > 0;
  const errorSections = new Set(
    [...Object.keys(clientErrors), ...Object.keys(serverFields)].map(sectionOfField),
  );

  const update = (patch: Partial<Draft>, fields: string[] = []) => {
    setDraft((d) => ({ ...d, ...patch }));
    if (fields.length || Object.keys(serverFields).length) {
      setServerFields((current) => {
        const next = { ...current };
        for (const key of Object.keys(next)) {
          if (fields.some((f) => key === f || key.startsWith(`${f}.`) || f.startsWith(`${key}.`)))
            delete next[key];
        }
        return next;
      });
    }
  };

  /** Client errors are shown for what the user changed, and for everything after a save attempt. */
  const errorFor = (field: string, changedHere: boolean): string | undefined =>
    serverFields[field] ?? (attempted || changedHere ? clientErrors[field] : undefined);

  const save = async () => {
    setConfirming(false);
    setBusy(true);
    setError(null);
    setServerFields({});
    try {
      const next = await settingsApi.updateOwnPartner(buildPatch(baseline, draft));
      onSaved(next);
    } catch (err) {
      const mapped = mapServerError(err, draft);
      setServerFields(mapped.fields);
      if (mapped.callerIp) setCallerIp(mapped.callerIp);
      const first = Object.keys(mapped.fields)[0];
      if (first) {
        const target = SECTIONS.find((s) => s.id === sectionOfField(first));
        if (target && target.path !== pathname) navigate(target.path);
      } else {
        setError(err);
      }
    } finally {
      setBusy(false);
    }
  };

  const requestSave = () => {
    setAttempted(true);
    if (invalid) {
      const first = Object.keys(clientErrors)[0];
      const target = first ? SECTIONS.find((s) => s.id === sectionOfField(first)) : undefined;
      if (target && target.path !== pathname) navigate(target.path);
      return;
    }
    onDismissNotice();
    // A changed, non-empty allowlist can shut people out: say so once more before it takes effect.
    if (changed.has('security') && cleanAllowlist(draft.allowlist).length > 0) setConfirming(true);
    else void save();
  };

  const discard = () => {
    setDraft(baseline);
    setServerFields({});
    setError(null);
    setAttempted(false);
  };

  const props = { draft, baseline, update, errorFor };

  return (
    <>
      <PageHeader
        title="Settings"
        sub={
          <>
            Settings of <strong>{partner.name}</strong>, for everyone on your partner team and the
            organizations you manage.
          </>
        }
      />
      <Tabs
        label="Settings sections"
        current={SECTIONS.find((s) => s.id === section)?.path}
        tabs={sectionTabs(SECTIONS, 'settings-tab', (s) =>
          errorSections.has(s.id) && (attempted || Object.keys(serverFields).length > 0) ? (
            <span className="adm-dot st-dot-bad" title="Has errors" />
          ) : changed.has(s.id) ? (
            <span className="adm-dot" title="Unsaved changes" />
          ) : undefined,
        )}
      />

      {notice && !dirty ? (
        <Alert tone="success" testId="settings-saved">
          {notice}
        </Alert>
      ) : null}

      <form
        className="st-form"
        onSubmit={(e) => {
          e.preventDefault();
          requestSave();
        }}
        noValidate
        data-testid="settings-form"
      >
        {section === 'general' ? <GeneralSection {...props} partner={partner} /> : null}
        {section === 'hours' ? <HoursSection {...props} /> : null}
        {section === 'contact' ? <ContactSection {...props} /> : null}
        {section === 'security' ? <SecuritySection {...props} callerIp={callerIp} /> : null}
        {section === 'service' ? <ServiceSection {...props} /> : null}
        {section === null ? (
          <EmptyState icon="alert" title={`There is no settings page at ${pathname}`} testId="not-found" />
        ) : null}

        <div className={`st-savebar${dirty ? ' dirty' : ''}`} data-testid="settings-savebar">
          <div className="st-savebar-text">
            {dirty ? (
              <>
                <strong>Unsaved changes</strong>
                <span className="muted">
                  {' '}
                  in{' '}
                  {SECTIONS.filter((s) => changed.has(s.id))
                    .map((s) => s.label.toLowerCase())
                    .join(', ')}
                </span>
              </>
            ) : (
              <span className="muted">No unsaved changes</span>
            )}
          </div>
          <Button tone="ghost" disabled={!dirty || busy} onClick={discard} testId="settings-discard">
            Discard
          </Button>
          <Button
            tone="primary"
            submit
            disabled={!dirty}
            busy={busy}
            busyLabel="Saving…"
            testId="settings-save"
          >
            Save changes
          </Button>
        </div>
        {error ? <ActionError error={error} testId="settings-error" /> : null}
        {attempted && invalid ? (
          <p className="field-error" data-testid="settings-invalid">
            Some fields need attention before saving (
            {[...errorSections].map((s) => SECTIONS.find((x) => x.id === s)?.label).join(', ')}).
          </p>
        ) : null}
      </form>

      <ConfirmDialog
        open={confirming}
        title="Apply this IP allowlist?"
        confirmLabel="Apply allowlist"
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void save()}
        testId="allowlist-confirm"
      >
        <div className="form">
          <p>
            From the moment you save, people on your partner team can sign in and work only from these
            addresses:
          </p>
          <ul className="st-confirm-list mono">
            {cleanAllowlist(draft.allowlist).map((entry) => (
              <li key={entry}>{entry}</li>
            ))}
          </ul>
          <p className="muted">
            Anyone outside them is refused at sign-in and on their next request, including you if your address
            is not covered. Platform administrators and agents are not affected.
          </p>
        </div>
      </ConfirmDialog>
    </>
  );
}
