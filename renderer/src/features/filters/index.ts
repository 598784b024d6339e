// The public surface of the filters feature: what the route table and other features may import.

export { FilterPanel, useFilterState } from './FilterPanel';
export { FiltersPage } from './FiltersPage';
export { SaveFilterDialog } from './SaveFilterDialog';
export { ChipInput } from './ValueEditor';
export { ROLE_OPTIONS } from './fields';
export { countConditions, fromConditions, newGroup, type GroupNode } from './model';
export { summarize } from './summary';
export { useSavedFilter } from './api';
