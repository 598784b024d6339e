import type { DeviceStatus, OsType } from './devices';

// Saved filters and global search (spec 2, Saved filter, Search).

/** The type a filter field compares as; it decides the operators (spec 2, "Operators by field type"). */
export type FilterFieldType =
  | 'string'
  | 'enum'
  | 'datetime'
  | 'array'
  | 'boolean'
  | 'number'
  /** software.installed / software.notInstalled: their own operator lists. */
  | 'software'
  /** orgId, siteId, groupId: equals and in. */
  | 'hierarchy';

/**
 * The operators each kind of field takes (spec 2's condition language): the server's compiler accepts exactly
 * these, and the console's builder offers exactly these. `capability` fields are booleans without null checks;
 * `software` is software.installed, `softwareMissing` software.notInstalled.
 */
export const FILTER_OPERATORS = {
  string: [
    'equals',
    'notEquals',
    'contains',
    'notContains',
    'startsWith',
    'endsWith',
    'matches',
    'in',
    'notIn',
    'isNull',
    'isNotNull',
  ],
  enum: ['equals', 'notEquals', 'in', 'notIn'],
  datetime: [
    'equals',
    'notEquals',
    'before',
    'after',
    'between',
    'withinLast',
    'notWithinLast',
    'isNull',
    'isNotNull',
  ],
  array: ['hasAny', 'hasAll', 'isEmpty', 'isNotEmpty', 'contains'],
  boolean: ['equals', 'notEquals', 'isNull', 'isNotNull'],
  number: [
    'equals',
    'notEquals',
    'greaterThan',
    'greaterThanOrEquals',
    'lessThan',
    'lessThanOrEquals',
    'between',
    'isNull',
    'isNotNull',
  ],
  capability: ['equals', 'notEquals'],
  software: ['contains', 'notContains', 'equals', 'in', 'hasAny', 'hasAll'],
  softwareMissing: ['contains'],
  hierarchy: ['equals', 'in'],
} as const;
export type FilterOperatorKind = keyof typeof FILTER_OPERATORS;

/** The units of a relative date (`withinLast`, `notWithinLast`). */
export const TIME_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

/** Types a custom-field definition may have; `custom.<key>` without a definition is a string. */
export type CustomFieldType = 'string' | 'number' | 'boolean' | 'datetime';

export type FilterOperator =
  | 'equals'
  | 'notEquals'
  | 'contains'
  | 'notContains'
  | 'startsWith'
  | 'endsWith'
  | 'matches'
  | 'in'
  | 'notIn'
  | 'isNull'
  | 'isNotNull'
  | 'before'
  | 'after'
  | 'between'
  | 'withinLast'
  | 'notWithinLast'
  | 'hasAny'
  | 'hasAll'
  | 'isEmpty'
  | 'isNotEmpty'
  | 'greaterThan'
  | 'greaterThanOrEquals'
  | 'lessThan'
  | 'lessThanOrEquals';

/** Value of `withinLast` / `notWithinLast`. */
export interface FilterTimeSpan {
  amount: number;
  unit: 'minutes' | 'hours' | 'days' | 'weeks' | 'months';
}

/**
 * `field` is a key of the spec's field table or `custom.<fieldKey>`; `operator` one the field's type allows
 * (FilterOperator). `value` is omitted for isNull, isNotNull, isEmpty and isNotEmpty.
 */
export interface FilterCondition {
  field: string;
  operator: string;
  value?: unknown;
}

export interface FilterConditionGroup {
  operator: 'AND' | 'OR';
  conditions: Array<FilterCondition | FilterConditionGroup>;
}

export interface SavedFilter {
  id: string;
  orgId: string;
  name: string;
  description: string | null;
  conditions: FilterConditionGroup;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface FilterPreviewDevice {
  id: string;
  hostname: string;
  displayName: string | null;
  osType: OsType;
  status: DeviceStatus;
  lastSeenAt: string | null;
}

/** `GET /filters`: every saved filter of the accessible organizations, newest first. */
export interface SavedFilterList {
  data: SavedFilter[];
  total: number;
}

export interface FilterPreview {
  data: { totalCount: number; devices: FilterPreviewDevice[]; evaluatedAt: string };
}

/** A saved filter's name and description, in characters (spec 2). */
export const SAVED_FILTER_LIMITS = { name: 200, description: 1000 } as const;

/** The longest text the global search takes (`q`), in characters. */
export const SEARCH_QUERY_MAX = 100;

/**
 * `GET /search`. Devices carry `description` `<osVersion> · <orgName> · <lastUser>`; settings (console pages) carry
 * `href`. The spec names users and organizations as searched kinds without their shape; Gatehouse adds those and
 * elevation requests and rules, each with `href`, its console path. Scripts and alerts are the spec's kinds for
 * features Gatehouse does not have: never returned.
 */
export interface SearchResult {
  id: string;
  type:
    | 'devices'
    | 'scripts'
    | 'alerts'
    | 'settings'
    | 'users'
    | 'organizations'
    | 'elevation_requests'
    | 'elevation_rules';
  title: string;
  description?: string;
  href?: string;
}

export interface SearchResponse {
  results: SearchResult[];
}
