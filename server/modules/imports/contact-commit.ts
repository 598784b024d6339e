import { randomUUID } from 'node:crypto';
import type { ContactImportErrorCode, ContactImportResult, ImportMode } from '../../contract/imports';
import { transaction } from '../../db/after-commit';
import type { Db } from '../../db/connection';
import {
  insertContact,
  insertContactLink,
  updateContactRow,
  type ContactColumns,
  type ContactRow,
} from '../contacts';
import { matchContactRows, type ContactRowMatch } from './contact-match';
import type { ContactCommitRow } from './schemas';

// Commit of a contact import (spec 3): one transaction that re-derives every annotation, checks each row's echo,
// and writes each row in its own savepoint. Imports never clear stored data: blank or absent columns leave a
// field as it is, and `roles` is replaced only by a non-empty list.

class RowRefused extends Error {
  constructor(
    readonly code: ContactImportErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const HINTS = new Set(['email-match', 'name-match']);

function existingTarget(row: ContactCommitRow, match: ContactRowMatch): ContactRow | null {
  if (match.problem) throw new RowRefused(match.problem.code, match.problem.message);
  if (row.expectedAnnotation !== undefined && row.expectedAnnotation !== match.annotation)
    throw new RowRefused(
      'annotation-changed',
      `The row is now ${match.annotation}; the preview said ${row.expectedAnnotation}`,
    );
  if (row.expectedContactId !== undefined && row.expectedContactId !== match.matched?.id)
    throw new RowRefused(
      'match-changed',
      match.matched
        ? `The row now matches contact ${match.matched.id}, not ${row.expectedContactId}`
        : `The row no longer matches contact ${row.expectedContactId}`,
    );
  if (
    HINTS.has(match.annotation) &&
    (row.expectedAnnotation === undefined || row.expectedContactId === undefined)
  )
    throw new RowRefused(
      'match-unconfirmed',
      `Matched by ${match.annotation === 'email-match' ? 'email' : 'name'} only: echo expectedAnnotation and expectedContactId to apply it`,
    );
  return match.matched;
}

/** The fields a row carries, as columns; blank and absent values are not there at all. */
function carried(row: ContactCommitRow, match: ContactRowMatch): ContactColumns {
  return {
    name: row.name,
    email: row.email,
    phone: row.phone,
    mobile: row.mobile,
    title: row.title,
    site_id: match.site?.id,
    roles: match.roles.length > 0 ? JSON.stringify(match.roles) : undefined,
  };
}

export function commitContactImport(input: {
  db: Db;
  partnerId: string;
  rows: readonly ContactCommitRow[];
  mode: ImportMode;
}): ContactImportResult {
  const { db, rows, mode } = input;
  return transaction(db, () => {
    const matches = matchContactRows(db, input.partnerId, rows);
    const out: ContactImportResult = { imported: [], updated: [], skipped: [], errors: [] };
    const at = new Date().toISOString();
    rows.forEach((row, index) => {
      const match = matches[index]!;
      try {
        transaction(db, () => {
          const existing = existingTarget(row, match);
          const org = match.org!;
          const link = match.link;
          if (!existing) {
            const id = randomUUID();
            const columns = carried(row, match);
            insertContact(db, {
              id,
              org_id: org.id,
              site_id: columns.site_id ?? null,
              name: columns.name ?? null,
              email: columns.email ?? null,
              phone: columns.phone ?? null,
              mobile: columns.mobile ?? null,
              title: columns.title ?? null,
              roles: columns.roles ?? '[]',
              created_at: at,
              updated_at: at,
            });
            if (link)
              insertContactLink(db, {
                orgId: org.id,
                contactId: id,
                system: link.system,
                externalId: link.id,
                at,
              });
            out.imported.push({ row: index, contactId: id, organizationId: org.id });
            return;
          }
          // A confirmed hint learns the row's external id, so the next import of the file is a link-match.
          const linked = link !== null && match.annotation !== 'link-match';
          if (linked)
            insertContactLink(db, {
              orgId: org.id,
              contactId: existing.id,
              system: link.system,
              externalId: link.id,
              at,
            });
          let changed = false;
          if (mode === 'update') {
            const columns = carried(row, match);
            const differs = (Object.keys(columns) as Array<keyof ContactColumns>).filter(
              (k) => columns[k] !== undefined && columns[k] !== existing[k as keyof ContactRow],
            );
            if (differs.length > 0) {
              updateContactRow(db, existing.id, { ...columns, updated_at: at });
              changed = true;
            }
          }
          if (changed || linked)
            out.updated.push({ row: index, contactId: existing.id, organizationId: org.id });
          else
            out.skipped.push({
              row: index,
              contactId: existing.id,
              reason: mode === 'skip' ? 'Already exists (mode skip)' : 'Nothing to change',
            });
        });
      } catch (err) {
        out.errors.push({
          row: index,
          code: err instanceof RowRefused ? err.code : 'write-failed',
          message: err instanceof Error ? err.message : 'Write failed',
        });
      }
    });
    return out;
  });
}
