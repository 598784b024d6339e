import { useEffect, type ReactNode } from 'react';
import { ApiError } from '../../lib/errors';
import { Link, useRouter } from '../../lib/router';
import { EmptyState, LoadState, LoadingBlock, PageHeader } from '../../ui';
import { useElevationRequest, useRule, useRules } from './api';
import type { PolicyOrg } from './org';
import { RULES_FORBIDDEN } from './parts';
import { RuleForm } from './RuleForm';

// /pam/rules/new, /pam/rules/new?fromRequest=<id>, /pam/rules/new?copyOf=<id> and /pam/rules/<id>: one rule,
// checked as it is typed against the spec's rule validation, with its preview against history beside it.

export function RuleEditor({ ruleId, org }: { ruleId: string | null; org: PolicyOrg }) {
  const search = useRouter((s) => s.search);
  const params = new URLSearchParams(search);
  const fromRequest = ruleId ? null : params.get('fromRequest');
  const copyOf = ruleId ? null : params.get('copyOf');
  const signerGroup = ruleId ? null : params.get('signerGroup');
  const sourceId = ruleId ?? copyOf;
  const request = useElevationRequest(fromRequest);
  const source = useRule(sourceId);
  // The organization the rule belongs to: the request's or the rule's, whatever the picker showed before.
  const ownerOrg = request.data?.request.orgId ?? source.data?.orgId ?? null;
  const { picks, orgId, setOrgId } = org;

  useEffect(() => {
    if (picks && ownerOrg && ownerOrg !== orgId) setOrgId(ownerOrg);
  }, [picks, ownerOrg, orgId, setOrgId]);

  const rules = useRules(org);
  const back = org.link('/pam/rules');
  const title = ruleId ? 'Rule' : 'New rule';
  const shell = (body: ReactNode) => (
    <div className="page adm ep-page">
      <PageHeader title={title} back={{ to: back, label: 'Rules' }} />
      {body}
    </div>
  );

  if (fromRequest && request.error && !request.data)
    return shell(
      request.error instanceof ApiError && request.error.status === 404 ? (
        <EmptyState icon="approvals" title="No such request" testId="rule-request-missing">
          The request to build the rule from was not found, or it belongs to an organization outside your
          access. <Link to={org.link('/pam/rules/new')}>Start an empty rule</Link> instead.
        </EmptyState>
      ) : (
        <LoadState of={request} forbidden={REQUEST_FORBIDDEN} />
      ),
    );
  if (sourceId && source.error && !source.data)
    return shell(
      source.error instanceof ApiError && (source.error.status === 404 || source.error.status === 400) ? (
        <EmptyState icon="lock" title="No such rule" testId="rule-not-found">
          It was deleted, or it belongs to an organization outside your access.{' '}
          <Link to={back}>Back to the rules</Link>
        </EmptyState>
      ) : (
        <LoadState of={source} forbidden={RULE_FORBIDDEN} />
      ),
    );
  if (rules.error && !rules.data) return shell(<LoadState of={rules} forbidden={RULES_FORBIDDEN} />);
  const waitingForOrg = ownerOrg !== null && picks && ownerOrg !== orgId;
  if (
    !org.loaded ||
    !org.orgId ||
    !rules.data ||
    (fromRequest && !request.data) ||
    (sourceId && !source.data) ||
    waitingForOrg
  )
    return shell(<LoadingBlock label="Loading…" />);

  const all = rules.data.rules;
  const rule = ruleId ? (source.data ?? null) : null;
  const copy = copyOf ? (source.data ?? null) : null;
  return (
    <RuleForm
      key={`${org.orgId}:${rule?.updatedAt ?? 'new'}:${fromRequest ?? ''}:${copy?.id ?? ''}:${signerGroup ?? ''}`}
      org={org}
      rule={rule}
      listRow={rule ? (all.find((r) => r.id === rule.id) ?? null) : null}
      copy={copy}
      signerGroup={signerGroup}
      request={request.data?.request ?? null}
      all={all}
      onChanged={() => {
        source.reload();
        rules.reload();
      }}
    />
  );
}

const REQUEST_FORBIDDEN = {
  title: 'This request is not available to you',
  text: 'Your account cannot read it.',
};
const RULE_FORBIDDEN = {
  title: 'This rule is not available to you',
  text: 'It belongs to a site or organization outside your access.',
};
