import { statement, type Db } from '../../db/connection';

export interface DomainRow {
  id: string;
  org_id: string;
  domain: string;
  token: string;
  verified_at: string | null;
  created_by: string | null;
  created_at: string;
}

export function insertDomain(db: Db, row: DomainRow): void {
  statement(
    db,
    `INSERT INTO sso_domains (id, org_id, domain, token, verified_at, created_by, created_at)
     VALUES (@id, @org_id, @domain, @token, @verified_at, @created_by, @created_at)`,
  ).run(row);
}

export function domainById(db: Db, id: string): DomainRow | undefined {
  return statement(db, 'SELECT * FROM sso_domains WHERE id = ?').get(id) as DomainRow | undefined;
}

export function domainOf(db: Db, orgId: string, domain: string): DomainRow | undefined {
  return statement(db, 'SELECT * FROM sso_domains WHERE org_id = ? AND domain = ?').get(orgId, domain) as
    DomainRow | undefined;
}

export function domainsOf(db: Db, orgId: string): DomainRow[] {
  return statement(db, 'SELECT * FROM sso_domains WHERE org_id = ? ORDER BY domain').all(
    orgId,
  ) as DomainRow[];
}

export function markDomainVerified(db: Db, id: string, at: string): void {
  statement(db, 'UPDATE sso_domains SET verified_at = ? WHERE id = ?').run(at, id);
}

export function deleteDomain(db: Db, id: string): void {
  statement(db, 'DELETE FROM sso_domains WHERE id = ?').run(id);
}
