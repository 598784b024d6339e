import type { AppContext } from '../../../context';
import { clientInfo } from '../../../http/client-info';
import { PERMISSIONS } from '../../../http/permissions';
import { defineRoute, type AnyRoute } from '../../../http/route';
import { exportQuery } from './schemas';
import { exportPage } from './service';

// GET /pam/elevation-audit/export (spec 2, Privileged access endpoints). Console user sessions only: an export
// is a person's act, audited under their name, so API keys are not accepted. The handler writes the CSV or JSONL
// body itself; mountRoutes skips its JSON step once headers are sent.

export function pamAuditExportRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/pam/elevation-audit/export',
      tag: 'pam',
      summary:
        "One page of an organization's elevation events in a window (from <= occurredAt < to), in seq order, as " +
        'CSV (default) or JSONL; page with X-Next-Cursor while X-Has-More is true',
      auth: 'user',
      permission: [PERMISSIONS.DEVICES_READ, PERMISSIONS.AUDIT_EXPORT],
      mfa: true,
      query: exportQuery,
      responses: {
        400: 'Invalid window (EXPORT_WINDOW_INVALID), orgId is required, unknown eventType, limit, Invalid cursor',
        403: 'Missing devices:read or audit:export; MFA required; Access to this organization or site denied',
        404: 'Organization not found; Site not found',
      },
      handler: ({ req, res, auth, query }) => {
        const page = exportPage(ctx, auth, query, clientInfo(req));
        res
          .status(200)
          .set(page.headers)
          .set('Cache-Control', 'no-store')
          // Set by hand: the filename is a UUID and digits, and clients expect the quoted form.
          .set('Content-Disposition', `attachment; filename="${page.filename}"`)
          .type(page.contentType)
          .send(page.body);
      },
    }),
  ];
}
