import type { PamRule, PamRuleListRow } from '../../../../server/contract';
import { useDocumentTitle, useTarget } from '../../lib/hooks';
import { compactTime } from '../../lib/format';
import { ActionError, Alert, ButtonLink, DeleteTarget, PageHeader, SmallButton } from '../../ui';
import { usePamConfig, useSignerGroups } from './api';
import { VERDICT_LABEL, listTiers } from './model';
import type { PolicyOrg } from './org';
import { PrefillCard } from './PrefillCard';
import { RulePreview } from './RulePreview';
import { DecisionSection, MatchSection, NameSection, PlaceSection } from './RuleSections';
import { useRuleForm, type RuleFormInput, type RuleFormState } from './useRuleForm';

// One rule on one page: its header and warnings, the form's cards, and beside them the save and the preview
// against history. The state lives in useRuleForm; the cards are RuleSections.

export function RuleForm({
  listRow,
  all,
  ...input
}: RuleFormInput & {
  /** The rule's row in the list: it alone says whether a pinned tier went stale. */
  listRow: PamRuleListRow | null;
  all: PamRuleListRow[];
}) {
  const { org, rule, request } = input;
  useDocumentTitle(rule ? rule.name : 'New rule');
  const form = useRuleForm(input);
  const { draft, dirty, reapprove, doReapprove, remove, formRef, submit, checked, togglePrefill } = form;
  const groups = useSignerGroups(org);
  const config = usePamConfig(org);
  const confirmDelete = useTarget<true>();
  const orgName = org.org?.name ?? 'this organization';

  return (
    <div className="page adm ep-page ep-editor-page">
      <PageHeader
        title={rule ? rule.name : 'New rule'}
        back={{ to: org.link('/pam/rules'), label: 'Rules' }}
        sub={
          <>
            {orgName}
            {rule ? (
              <>
                {' '}
                · updated {compactTime(rule.updatedAt)}
                {dirty ? <span className="ep-dirty"> · unsaved changes</span> : null}
              </>
            ) : (
              ' · requests are checked against rules in priority order; the first match decides'
            )}
          </>
        }
        actions={
          rule ? (
            <SmallButton
              tone="danger"
              icon="trash"
              onClick={() => confirmDelete.open(true)}
              testId="rule-delete"
            >
              Delete
            </SmallButton>
          ) : null
        }
      />

      {rule?.suspendedVerdict ? (
        <Alert tone="warning" testId="rule-suspended">
          A server release suspended this rule: it was <strong>{VERDICT_LABEL[rule.suspendedVerdict]}</strong>{' '}
          and decides as <strong>{VERDICT_LABEL[rule.verdict]}</strong> until someone re-approves it. Check
          the criteria, then{' '}
          <SmallButton
            tone="secondary"
            onClick={doReapprove}
            disabled={reapprove.busy}
            testId="rule-reapprove"
          >
            {reapprove.busy ? 'Re-approving…' : `Re-approve as ${VERDICT_LABEL[rule.suspendedVerdict]}`}
          </SmallButton>{' '}
          — or choose another verdict below and save.
          <ActionError error={reapprove.error} testId="rule-reapprove-error" />
        </Alert>
      ) : null}
      {listRow?.matchRiskTierStale ? (
        <Alert tone="warning" testId="rule-stale">
          Tier {listRow.matchRiskTier} can no longer match: in this server build the tool carries{' '}
          {listRow.matchRiskTierValidTiers ? listTiers(listRow.matchRiskTierValidTiers) : 'other tiers'}.
          Change the tier (or clear it) to make the rule useful again.
        </Alert>
      ) : null}

      <div className="ep-editor">
        <form
          ref={formRef}
          id="rule-form"
          className="ep-editor-main"
          onSubmit={submit}
          noValidate
          data-testid="rule-form"
        >
          {request ? <PrefillCard request={request} checked={checked} onToggle={togglePrefill} /> : null}
          <NameSection form={form} autoFocus={!rule && !request} />
          <MatchSection
            form={form}
            groups={groups.data?.signerGroups ?? null}
            groupsLink={org.link('/pam/signer-groups')}
          />
          <PlaceSection form={form} org={org} />
          <DecisionSection
            form={form}
            defaultMinutes={config.data?.config.defaultApprovalDurationMinutes ?? null}
            all={all}
            selfId={rule?.id ?? null}
          />
        </form>

        <div className="ep-side">
          <RuleActions form={form} org={org} rule={rule} />
          <RulePreview body={form.previewBody} blocked={form.previewBlocked} verdict={draft.verdict} />
        </div>
      </div>

      <DeleteTarget of={confirmDelete} what="rule" testId="rule-delete-dialog" onConfirm={remove}>
        <p>
          Delete <strong>{rule?.name}</strong>? Requests it would decide fall through to the next matching
          rule, or to the organization default. Past decisions keep its name.
        </p>
      </DeleteTarget>
    </div>
  );
}

/** The save beside the form, and what it would do: unsaved changes, fields to fix, or the server's refusal. */
function RuleActions({ form, org, rule }: { form: RuleFormState; org: PolicyOrg; rule: PamRule | null }) {
  const { save, dirty, attempted, errors } = form;
  return (
    <div className="ui-panel raised strong ep-actions" data-testid="rule-actions">
      <div className="ep-actions-row">
        <ButtonLink to={org.link('/pam/rules')} tone="ghost">
          Cancel
        </ButtonLink>
        <button
          type="submit"
          form="rule-form"
          className="btn btn-primary"
          disabled={save.busy || (rule !== null && !dirty)}
          data-testid="rule-save"
        >
          {save.busy ? 'Saving…' : rule ? 'Save changes' : 'Create rule'}
        </button>
      </div>
      {save.error ? (
        <ActionError error={save.error} testId="rule-error" />
      ) : attempted && Object.keys(errors).length > 0 ? (
        <span className="field-error" data-testid="rule-invalid">
          {Object.keys(errors).length === 1
            ? 'One field needs attention before saving.'
            : `${Object.keys(errors).length} fields need attention before saving.`}
        </span>
      ) : (
        <span className="muted small">
          {rule
            ? dirty
              ? 'Unsaved changes: they apply to the next request once saved.'
              : 'No unsaved changes.'
            : 'The rule applies to the next request once it is created.'}
        </span>
      )}
    </div>
  );
}
