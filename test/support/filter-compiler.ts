import { afterAll, beforeAll, expect } from 'vitest';
import type { FilterCondition, FilterConditionGroup } from '../../server/contract/filters';
import { openDatabase, type Db } from '../../server/db/connection';
import { loadMigrations, migrate } from '../../server/db/migrate';
import { HttpError } from '../../server/http/errors';
import {
  compileFilter,
  parseConditionGroup,
  registerFilterFunctions,
} from '../../server/modules/filters/compile';

// Shared by the filter compiler's unit suites (test/unit/filter-compiler-*.test.ts): a fixed clock and custom-field
// types, compiling one condition, reading a refusal, and an in-memory database the compiled SQL must run on.
// `db` is a live binding: a suite calls useCompilerDb() once at its top.

export const NOW = new Date('2026-03-15T12:00:00.000Z');
export const NOW_ISO = NOW.toISOString();
export const TYPES = new Map([
  ['rack', 'number'],
  ['backup', 'boolean'],
  ['warranty', 'datetime'],
] as const);

export const one = (condition: FilterCondition): FilterConditionGroup => ({
  operator: 'AND',
  conditions: [condition],
});
export const compile = (condition: FilterCondition) =>
  compileFilter(parseConditionGroup(one(condition)), { customFieldTypes: TYPES, now: NOW });

export function refusal(fn: () => unknown): {
  status: number;
  message: string;
  code?: string;
  extra: object;
} {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError)
      return { status: err.status, message: err.message, code: err.code, extra: err.extra };
    throw err;
  }
  throw new Error('expected a refusal');
}

/** Every compiled fragment must be valid SQL over `devices d` with exactly its parameters. */
export function runs(compiled: { sql: string; params: unknown[] }) {
  expect(() =>
    db.prepare(`SELECT count(*) FROM devices d WHERE ${compiled.sql}`).get(...compiled.params),
  ).not.toThrow();
}

export interface Case {
  field: string;
  operator: string;
  value?: unknown;
  sql: string;
  params: unknown[];
}

export const LIKE = "ESCAPE '\\'";
export const LIST = '(SELECT value FROM json_each(?))';

export let db: Db;

export function useCompilerDb(): void {
  beforeAll(() => {
    db = openDatabase(':memory:');
    migrate(db, loadMigrations());
    registerFilterFunctions(db);
  });
  afterAll(() => db.close());
}
