import { randomUUID } from 'node:crypto';
import { transaction } from '../../../db/after-commit';
import type { Request } from 'express';
import type { z } from 'zod';
import type { SignerGroup, SignerGroupList, SignerGroupResponse } from '../../../contract';
import type { AppContext } from '../../../context';
import type { AuthContext } from '../../../http/auth-context';
import { badRequest, HttpError, notFound } from '../../../http/errors';
import { auditCaller } from '../../audit';
import { requireWholeOrgWrite, SIGNER_GROUP_NOT_FOUND, signerGroupInScope, targetOrg } from './access';
import type { createSignerGroupBody, updateSignerGroupBody } from './schemas';
import { policyStore, toSignerGroup, type SignerGroupRow } from './store';

// /pam/signer-groups (spec 2 "Signer group"): named lists of code signers a rule can match with
// matchSignerGroupId. Names are unique per organization (case-insensitively), so the rule editor's picker is
// unambiguous. A group referenced by a rule cannot be deleted (409 naming the count); the foreign key backs it.

function nameTaken(message = 'A signer group with this name already exists'): HttpError {
  return new HttpError(409, message, 'SIGNER_GROUP_NAME_TAKEN');
}

function audit(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  action: 'pam.signer_group.create' | 'pam.signer_group.update' | 'pam.signer_group.delete',
  group: SignerGroup,
  details: Record<string, unknown> = {},
) {
  auditCaller(ctx, req, auth, {
    orgId: group.orgId,
    action,
    resourceType: 'pam_signer_group',
    resourceId: group.id,
    resourceName: group.name,
    details: { signerCount: group.signers.length, ...details },
  });
}

export function listSignerGroups(
  ctx: AppContext,
  auth: AuthContext,
  orgId: string | undefined,
): SignerGroupList {
  const org = targetOrg(ctx, auth, orgId);
  return { success: true, signerGroups: policyStore(ctx.db).groupsOfOrg(org).map(toSignerGroup) };
}

export function createSignerGroup(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  body: z.infer<typeof createSignerGroupBody>,
): SignerGroupResponse {
  const orgId = targetOrg(ctx, auth, body.orgId);
  requireWholeOrgWrite(ctx, auth);
  const store = policyStore(ctx.db);
  if (store.groupNameTaken(orgId, body.name)) throw nameTaken();
  const at = new Date().toISOString();
  const row: SignerGroupRow = {
    id: randomUUID(),
    org_id: orgId,
    name: body.name,
    description: body.description ?? null,
    signers: JSON.stringify(body.signers),
    created_at: at,
    updated_at: at,
  };
  store.insertGroup(row);
  const group = toSignerGroup(row);
  audit(ctx, req, auth, 'pam.signer_group.create', group);
  return { success: true, signerGroup: group };
}

export function updateSignerGroup(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
  body: z.infer<typeof updateSignerGroupBody>,
): SignerGroupResponse {
  if (body.name === undefined && body.description === undefined && body.signers === undefined)
    throw badRequest('No updates provided', 'VALIDATION_ERROR');
  const row = signerGroupInScope(ctx, auth, id);
  requireWholeOrgWrite(ctx, auth);
  const store = policyStore(ctx.db);
  const next = {
    id,
    name: body.name ?? row.name,
    description: body.description === undefined ? row.description : body.description,
    signers: body.signers === undefined ? row.signers : JSON.stringify(body.signers),
    updated_at: new Date().toISOString(),
  };
  const changedFields = (['name', 'description', 'signers'] as const).filter((k) => next[k] !== row[k]);
  if (changedFields.length === 0) return { success: true, signerGroup: toSignerGroup(row) };
  if (changedFields.includes('name') && store.groupNameTaken(row.org_id, next.name, id)) throw nameTaken();
  if (!store.updateGroup(next)) throw notFound(SIGNER_GROUP_NOT_FOUND);
  const group = toSignerGroup(store.groupById(id)!);
  audit(ctx, req, auth, 'pam.signer_group.update', group, { changedFields });
  return { success: true, signerGroup: group };
}

export function deleteSignerGroup(
  ctx: AppContext,
  req: Request,
  auth: AuthContext,
  id: string,
): SignerGroupResponse {
  const row = signerGroupInScope(ctx, auth, id);
  requireWholeOrgWrite(ctx, auth);
  const store = policyStore(ctx.db);
  // Count and delete in one transaction, so a rule created in between cannot turn the 409 into a constraint error.
  transaction(ctx.db, () => {
    const ruleCount = store.rulesUsingGroup(id);
    if (ruleCount > 0) {
      throw new HttpError(409, `Signer group is referenced by ${ruleCount} rule(s)`, 'SIGNER_GROUP_IN_USE', {
        ruleCount,
      });
    }
    if (!store.deleteGroup(id)) throw notFound(SIGNER_GROUP_NOT_FOUND);
  });
  const group = toSignerGroup(row);
  audit(ctx, req, auth, 'pam.signer_group.delete', group);
  return { success: true, signerGroup: group };
}
