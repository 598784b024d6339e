// The limits on a filter's size and values. The words of the condition language (which operators each field type
// has, the time units of relative dates) are the console's too, so they live in the contract (contract/filters.ts).

export const MAX_FILTER_DEPTH = 32;
export const MAX_FILTER_CONDITIONS = 500;
export const MAX_FILTER_GROUPS = 500;
export const MAX_LIST_ITEMS = 1000;
export const MAX_TEXT = 1000;
export const MAX_PATTERN = 500;
export const MAX_AMOUNT = 100_000;
