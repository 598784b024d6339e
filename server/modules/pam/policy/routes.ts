import type { AiToolsResponse } from '../../../contract';
import type { AppContext } from '../../../context';
import { PERMISSIONS } from '../../../http/permissions';
import { defineRoute, type AnyRoute } from '../../../http/route';
import { AI_TOOL_CATALOG } from '../tools';
import { getPamConfig, putPamConfig } from './org-config';
import { previewRule } from './preview';
import {
  createRuleBody,
  createSignerGroupBody,
  idParams,
  orgQuery,
  previewBody,
  putConfigBody,
  updateRuleBody,
  updateSignerGroupBody,
} from './schemas';
import { createRule, deleteRule, getRule, listRules, updateRule } from './service';
import { createSignerGroup, deleteSignerGroup, listSignerGroups, updateSignerGroup } from './signer-groups';

// PAM policy (spec 2 "Privileged access", common5 permissions): JWT or API key. Reads need devices:read; rule
// writes pam:manage_policy plus MFA; the preview pam:manage_policy and devices:write; signer group writes and
// PUT /pam/config pam:manage_policy, devices:write and MFA. Partner and system callers name the organization
// (`orgId` in the query for reads, in the body for writes); organization callers work in their own.

const TAG = 'pam-policy';
const { DEVICES_READ, DEVICES_WRITE, PAM_MANAGE_POLICY } = PERMISSIONS;
const ORG = { 400: 'orgId is required for partner scope', 404: 'Organization not found' };
const RULE_INVALID =
  'Invalid rule shape (identifying criterion, executable or tool shape, exclusive signer criteria, negations); pam_rule_risk_tier_unreachable with validTiers';

export function pamPolicyRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/pam/rules',
      tag: TAG,
      summary:
        'PAM rules of an organization in decision order (priority, then age); rows flag stale risk tiers',
      auth: 'user_or_key',
      permission: DEVICES_READ,
      query: orgQuery,
      responses: ORG,
      handler: ({ auth, query }) => listRules(ctx, auth, query.orgId),
    }),
    defineRoute({
      method: 'post',
      path: '/pam/rules',
      tag: TAG,
      summary: 'Create a PAM rule; 201 with the full rule',
      auth: 'user_or_key',
      permission: PAM_MANAGE_POLICY,
      mfa: true,
      body: createRuleBody,
      status: 201,
      responses: { ...ORG, 400: RULE_INVALID, 403: 'Access to this site denied' },
      handler: ({ req, auth, body }) => createRule(ctx, req, auth, body),
    }),
    // Before /pam/rules/:id so that "preview" is never taken for an id.
    defineRoute({
      method: 'post',
      path: '/pam/rules/preview',
      tag: TAG,
      summary:
        'What the criteria would have matched among the last windowDays (1-90, default 30) of elevation requests',
      auth: 'user_or_key',
      permission: [PAM_MANAGE_POLICY, DEVICES_WRITE],
      body: previewBody,
      responses: { ...ORG, 400: RULE_INVALID },
      handler: ({ auth, body }) => previewRule(ctx, auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/pam/rules/:id',
      tag: TAG,
      summary: 'One PAM rule (Gatehouse extension)',
      auth: 'user_or_key',
      permission: DEVICES_READ,
      params: idParams,
      responses: { 404: 'PAM rule not found' },
      handler: ({ auth, params }) => getRule(ctx, auth, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/pam/rules/:id',
      tag: TAG,
      summary:
        'Change rule fields (null clears a criterion), or `{reapprove: true}` to restore a suspended verdict',
      auth: 'user_or_key',
      permission: PAM_MANAGE_POLICY,
      mfa: true,
      params: idParams,
      body: updateRuleBody,
      responses: {
        400: `${RULE_INVALID}; PAM rule is not suspended`,
        403: 'Access to this site denied',
        404: 'PAM rule not found',
      },
      handler: ({ req, auth, params, body }) => updateRule(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/pam/rules/:id',
      tag: TAG,
      summary: 'Delete a PAM rule; returns the deleted rule',
      auth: 'user_or_key',
      permission: PAM_MANAGE_POLICY,
      mfa: true,
      params: idParams,
      responses: { 403: 'Access to this site denied', 404: 'PAM rule not found' },
      handler: ({ req, auth, params }) => deleteRule(ctx, req, auth, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/pam/signer-groups',
      tag: TAG,
      summary: 'Signer groups of an organization, by name',
      auth: 'user_or_key',
      permission: DEVICES_READ,
      query: orgQuery,
      responses: ORG,
      handler: ({ auth, query }) => listSignerGroups(ctx, auth, query.orgId),
    }),
    defineRoute({
      method: 'post',
      path: '/pam/signer-groups',
      tag: TAG,
      summary: 'Create a signer group (signers trimmed and de-duplicated case-insensitively, at most 500)',
      auth: 'user_or_key',
      permission: [PAM_MANAGE_POLICY, DEVICES_WRITE],
      mfa: true,
      body: createSignerGroupBody,
      status: 201,
      responses: { ...ORG, 409: 'A signer group with this name already exists' },
      handler: ({ req, auth, body }) => createSignerGroup(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'patch',
      path: '/pam/signer-groups/:id',
      tag: TAG,
      summary: 'Change name, description or signers of a signer group',
      auth: 'user_or_key',
      permission: [PAM_MANAGE_POLICY, DEVICES_WRITE],
      mfa: true,
      params: idParams,
      body: updateSignerGroupBody,
      responses: { 404: 'Signer group not found', 409: 'A signer group with this name already exists' },
      handler: ({ req, auth, params, body }) => updateSignerGroup(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/pam/signer-groups/:id',
      tag: TAG,
      summary: 'Delete a signer group; 409 while a rule references it',
      auth: 'user_or_key',
      permission: [PAM_MANAGE_POLICY, DEVICES_WRITE],
      mfa: true,
      params: idParams,
      responses: { 404: 'Signer group not found', 409: 'Signer group is referenced by N rule(s)' },
      handler: ({ req, auth, params }) => deleteSignerGroup(ctx, req, auth, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/pam/config',
      tag: TAG,
      summary: "The organization's PAM configuration (require_approval when never set)",
      auth: 'user_or_key',
      permission: DEVICES_READ,
      query: orgQuery,
      responses: ORG,
      handler: ({ auth, query }) => getPamConfig(ctx, auth, query.orgId),
    }),
    defineRoute({
      method: 'put',
      path: '/pam/config',
      tag: TAG,
      summary:
        'Set defaultUnmatchedVerdict and, optionally, defaultApprovalDurationMinutes and actuatorEnabled',
      auth: 'user_or_key',
      permission: [PAM_MANAGE_POLICY, DEVICES_WRITE],
      mfa: true,
      body: putConfigBody,
      responses: ORG,
      handler: ({ req, auth, body }) => putPamConfig(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/pam/ai-tools',
      tag: TAG,
      summary: 'The AI tools this server build knows and the risk tiers each can carry (Gatehouse extension)',
      auth: 'user_or_key',
      permission: DEVICES_READ,
      handler: (): AiToolsResponse => ({ success: true, tools: [...AI_TOOL_CATALOG] }),
    }),
  ];
}
