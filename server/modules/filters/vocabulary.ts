// The words of the condition language: which operators each field type has, the time units of relative dates,
// the enumerations devices are filtered by, and the limits on a filter's size and values.

export const MAX_FILTER_DEPTH = 32;
export const MAX_FILTER_CONDITIONS = 500;
export const MAX_FILTER_GROUPS = 500;
export const MAX_LIST_ITEMS = 1000;
export const MAX_TEXT = 1000;
export const MAX_PATTERN = 500;
export const MAX_AMOUNT = 100_000;

export const STRING_OPERATORS = [
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
] as const;
export const ENUM_OPERATORS = ['equals', 'notEquals', 'in', 'notIn'] as const;
export const DATETIME_OPERATORS = [
  'equals',
  'notEquals',
  'before',
  'after',
  'between',
  'withinLast',
  'notWithinLast',
  'isNull',
  'isNotNull',
] as const;
export const ARRAY_OPERATORS = ['hasAny', 'hasAll', 'isEmpty', 'isNotEmpty', 'contains'] as const;
export const BOOLEAN_OPERATORS = ['equals', 'notEquals', 'isNull', 'isNotNull'] as const;
export const NUMBER_OPERATORS = [
  'equals',
  'notEquals',
  'greaterThan',
  'greaterThanOrEquals',
  'lessThan',
  'lessThanOrEquals',
  'between',
  'isNull',
  'isNotNull',
] as const;
export const CAPABILITY_OPERATORS = ['equals', 'notEquals'] as const;
export const SOFTWARE_INSTALLED_OPERATORS = [
  'contains',
  'notContains',
  'equals',
  'in',
  'hasAny',
  'hasAll',
] as const;
export const SOFTWARE_NOT_INSTALLED_OPERATORS = ['contains'] as const;
export const HIERARCHY_OPERATORS = ['equals', 'in'] as const;

export const TIME_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];
