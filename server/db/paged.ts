import { pageOffset, type PageRequest } from '../http/pagination';
import { statement, type Db } from './connection';

// The one paged list query: the count and the page come from the same FROM and WHERE, so they cannot disagree,
// and both statements are cached per shape (statement()). Callers pass SQL fragments built from fixed text and
// bind every value through `params`.

export interface PagedQuery {
  /** Columns of a page row, e.g. `a.*, u.name AS actor_name`. */
  select: string;
  /** Values for placeholders in `select` (a correlated count column), bound before `params`. */
  selectParams?: readonly unknown[];
  /** `FROM ...` with its joins, without the word FROM. */
  from: string;
  /** Conditions joined with AND; an empty list matches every row. */
  where?: readonly string[];
  /** Values for the placeholders of `from` and `where`, in order. */
  params?: readonly unknown[];
  /** `ORDER BY` body; end it with a unique column so pages never overlap. */
  orderBy: string;
  page: PageRequest;
}

export function pagedQuery<Row>(db: Db, q: PagedQuery): { rows: Row[]; total: number } {
  const where = q.where?.length ? `WHERE ${q.where.join(' AND ')}` : '';
  const params = q.params ?? [];
  const total = (
    statement(db, `SELECT COUNT(*) AS n FROM ${q.from} ${where}`).get(...params) as { n: number }
  ).n;
  const rows = statement(
    db,
    `SELECT ${q.select} FROM ${q.from} ${where} ORDER BY ${q.orderBy} LIMIT ? OFFSET ?`,
  ).all(...(q.selectParams ?? []), ...params, q.page.limit, pageOffset(q.page)) as Row[];
  return { rows, total };
}
