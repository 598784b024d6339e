import type { AppContext } from '../../context';
import { PERMISSIONS } from '../../http/permissions';
import { defineRoute, type AnyRoute } from '../../http/route';
import { commitOrgImportRequest, previewOrgImport } from './org-import';
import { commitContactImportRequest, previewContactImport } from './contact-import';
import { contactCommitBody, contactPreviewBody, orgCommitBody, orgPreviewBody } from './schemas';

// Estate import (spec 3, Import): a partner administrator's MFA session, organization and site write. Bodies up
// to 1000 rows fit the default 1 MB body limit only when rows are lean; imports take 8 MB.

const TAG = 'import';
const WRITE = [PERMISSIONS.ORGANIZATIONS_WRITE, PERMISSIONS.SITES_WRITE] as const;
const REFUSALS = {
  403: 'MFA required; Partner scope required; Full partner organization access required',
};

export function importRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/orgs/import/preview',
      tag: TAG,
      summary: 'Preview an organization and site import: each row annotated, nothing written',
      auth: 'user',
      mfa: true,
      permission: WRITE,
      body: orgPreviewBody,
      bodyLimit: '8mb',
      status: 200,
      responses: REFUSALS,
      handler: ({ auth, body }) => previewOrgImport(ctx, auth, body),
    }),
    defineRoute({
      method: 'post',
      path: '/orgs/import',
      tag: TAG,
      summary: 'Commit an organization and site import (always 200, row by row)',
      auth: 'user',
      mfa: true,
      permission: WRITE,
      body: orgCommitBody,
      bodyLimit: '8mb',
      status: 200,
      responses: REFUSALS,
      handler: ({ req, auth, body }) => commitOrgImportRequest(ctx, req, auth, body),
    }),
    defineRoute({
      method: 'post',
      path: '/orgs/contacts/import/preview',
      tag: TAG,
      summary: 'Preview a contact import: each row annotated (with a non-fatal warning), nothing written',
      auth: 'user',
      mfa: true,
      permission: WRITE,
      body: contactPreviewBody,
      bodyLimit: '8mb',
      status: 200,
      responses: { ...REFUSALS, 400: 'A row with none of name, email, phone or mobile (code no-identifier)' },
      handler: ({ auth, body }) => previewContactImport(ctx, auth, body),
    }),
    defineRoute({
      method: 'post',
      path: '/orgs/contacts/import',
      tag: TAG,
      summary: 'Commit a contact import (always 200; each row error has a code)',
      auth: 'user',
      mfa: true,
      permission: WRITE,
      body: contactCommitBody,
      bodyLimit: '8mb',
      status: 200,
      responses: { ...REFUSALS, 400: 'A row with none of name, email, phone or mobile (code no-identifier)' },
      handler: ({ req, auth, body }) => commitContactImportRequest(ctx, req, auth, body),
    }),
  ];
}
