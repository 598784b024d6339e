import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { idParams } from '../api-keys';
import { createEnrollmentKeyBody, listEnrollmentKeysQuery, rotateEnrollmentKeyBody } from './schemas';
import {
  createEnrollmentKey,
  deleteEnrollmentKey,
  getEnrollmentKey,
  listEnrollmentKeys,
  rotateEnrollmentKey,
} from './service';

// /enrollment-keys (spec 1): the same permissions as API keys: organizations:read to read, organizations:write
// plus an MFA session to write.

const TAG = 'enrollment-keys';
const NOT_FOUND = { 404: 'Enrollment key not found' };

export function enrollmentKeyRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/enrollment-keys',
      tag: TAG,
      summary: "Enrollment keys of the organizations in the caller's scope, newest first (never the key)",
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_READ,
      query: listEnrollmentKeysQuery,
      handler: ({ auth, query }) => listEnrollmentKeys(ctx, auth, query),
    }),
    defineRoute({
      method: 'post',
      path: '/enrollment-keys',
      tag: TAG,
      summary: 'Create an enrollment key; the key is returned once',
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      body: createEnrollmentKeyBody,
      status: 201,
      responses: { 404: 'Organization not found' },
      handler: ({ req, auth, body }) => createEnrollmentKey(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'get',
      path: '/enrollment-keys/:id',
      tag: TAG,
      summary: 'One enrollment key (metadata only)',
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_READ,
      params: idParams,
      responses: NOT_FOUND,
      handler: ({ auth, params }) => getEnrollmentKey(ctx, auth, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/enrollment-keys/:id/rotate',
      tag: TAG,
      summary: 'New key material and usage back to 0; maxUsage and expiresAt change only when sent',
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      params: idParams,
      body: rotateEnrollmentKeyBody,
      responses: NOT_FOUND,
      handler: ({ req, auth, params, body }) => rotateEnrollmentKey(ctx, req, auth, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/enrollment-keys/:id',
      tag: TAG,
      summary: 'Delete an enrollment key permanently',
      auth: 'user',
      permission: PERMISSIONS.ORGANIZATIONS_WRITE,
      mfa: true,
      params: idParams,
      responses: NOT_FOUND,
      handler: ({ req, auth, params }) => deleteEnrollmentKey(ctx, req, auth, params.id),
    }),
  ];
}
