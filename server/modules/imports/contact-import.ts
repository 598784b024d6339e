import type { Request } from 'express';
import type { z } from 'zod';
import type { ContactImportPreviewResponse, ContactImportResult } from '../../contract/imports';
import type { AppContext } from '../../context';
import type { UserAuth } from '../../http/auth-context';
import { badRequest } from '../../http/errors';
import { commitContactImport } from './contact-commit';
import { matchContactRows, toContactPreviewRow } from './contact-match';
import { auditImportSummary, importPartner } from './gate';
import type { contactCommitBody, contactPreviewBody } from './schemas';

// POST /orgs/contacts/import/preview and POST /orgs/contacts/import (spec 3, Import).

type Identifiable = { name?: string; email?: string; phone?: string; mobile?: string };

/** Spec 3: one row with none of name, email, phone, mobile rejects the whole request with 400, naming the row. */
function requireIdentifiers(rows: readonly Identifiable[]): void {
  const index = rows.findIndex((r) => !(r.name ?? r.email ?? r.phone ?? r.mobile));
  if (index >= 0)
    throw badRequest(`Row ${index} has none of name, email, phone or mobile`, 'no-identifier', {
      row: index,
    });
}

export function previewContactImport(
  ctx: AppContext,
  auth: UserAuth,
  body: z.infer<typeof contactPreviewBody>,
): ContactImportPreviewResponse {
  const partnerId = importPartner(ctx.db, auth, body.partnerId);
  requireIdentifiers(body.rows);
  const matches = matchContactRows(ctx.db, partnerId, body.rows);
  return { rows: matches.map((m, i) => toContactPreviewRow(i, m)) };
}

export function commitContactImportRequest(
  ctx: AppContext,
  req: Request,
  auth: UserAuth,
  body: z.infer<typeof contactCommitBody>,
): ContactImportResult {
  const partnerId = importPartner(ctx.db, auth, body.partnerId);
  requireIdentifiers(body.rows);
  const result = commitContactImport({ db: ctx.db, partnerId, rows: body.rows, mode: body.mode });
  auditImportSummary(ctx, req, auth, partnerId, 'contact.import', body, result);
  return result;
}
