import type { OrgImportAnnotation, OrgImportCommitRow, OrgImportRow } from '../../../../server/contract';
import { importsApi } from './api';
import { commitOutcomes, type AnnotationInfo, type ImportModel } from './model';
import { buildOrgRow, ORG_FIELDS } from './org-fields';

// The organization and site import (spec 3, Import row for organizations and sites): one row is one site of one
// organization; rows sharing an organization name are one organization, decided together.

const ANNOTATIONS: Record<OrgImportAnnotation, AnnotationInfo> = {
  create: {
    label: 'New',
    tone: 'new',
    explain: 'No organization of yours has this name or external id: a new organization is created.',
  },
  'link-match': {
    label: 'Linked',
    tone: 'linked',
    explain:
      'Same external id as an organization already here (the stable match): its sites are added to it.',
  },
  'name-match': {
    label: 'Same name',
    tone: 'ask',
    explain:
      'An organization with this name exists, but nothing proves it is the same customer: attach to it or create a new one.',
  },
  'matched-soft-deleted': {
    label: 'Deleted match',
    tone: 'ask',
    explain:
      'Matches an organization that was deleted: restore it and attach the row, or create a new organization.',
  },
  conflict: {
    label: 'Conflict',
    tone: 'bad',
    explain: 'Cannot be imported as it is (the reason is on the row); fix the file and import it again.',
  },
};

export const orgImportModel: ImportModel<OrgImportRow> = {
  id: 'organizations',
  title: 'Organizations and sites',
  about:
    'One row per site. Rows with the same organization name become one organization with several sites; an organization without a site column gets one default site named after it.',
  columns: { subject: 'Organization', detail: 'Site' },
  decidesPerGroup: true,
  fields: ORG_FIELDS,
  build: buildOrgRow,
  annotations: ANNOTATIONS,
  choiceLabel: (decision, line) => {
    const name = line.matchedLabel ?? 'the match';
    if (decision === 'leave') return 'Leave out';
    if (decision === 'create') return 'Create a new organization';
    return line.annotation === 'matched-soft-deleted' ? `Restore ${name} and attach` : `Attach to ${name}`;
  },
  preview: async (rows) => {
    const { rows: lines } = await importsApi.previewOrganizations(rows);
    return lines.map((l) => ({
      annotation: l.annotation,
      subject: l.organization,
      detail: l.site,
      matchedId: l.matchedOrganizationId,
      matchedLabel: l.matchedOrganizationName,
      note: l.conflictReason,
      asks:
        l.annotation === 'name-match' || l.annotation === 'matched-soft-deleted'
          ? (['attach', 'create', 'leave'] as const)
          : null,
    }));
  },
  commit: async (items, mode) => {
    // Every row echoes what the preview said, so a row whose match changed since is refused, not misapplied.
    const rows = items.map(({ row, line, decision }): OrgImportCommitRow => {
      const annotation = line.annotation as OrgImportAnnotation;
      return {
        ...row,
        expectedAnnotation: annotation,
        ...(line.matchedId ? { expectedOrganizationId: line.matchedId } : {}),
        ...(decision === 'create' ? { forceCreate: true } : {}),
        ...(decision === 'attach' && annotation === 'matched-soft-deleted' ? { reactivate: true } : {}),
      };
    });
    const result = await importsApi.commitOrganizations(rows, mode);
    const where = (org: string, site: string | null) => (site ? `${site} of ${org}` : org);
    return commitOutcomes(result, {
      imported: (r) =>
        r.organizationCreated
          ? `Created ${r.organization}${r.site ? ` with site ${r.site}` : ''}`
          : `Added ${where(r.organization, r.site)}`,
      updated: (r) =>
        `${r.reactivated ? 'Restored and updated' : 'Updated'} ${where(r.organization, r.site)}`,
    });
  },
  modeHelp: {
    skip: 'Organizations and sites that already exist are left as they are; only what is new is added.',
    update:
      'Existing sites take the time zone, address and contact the file gives (blank cells never clear anything); a linked organization takes the file’s name.',
  },
};
