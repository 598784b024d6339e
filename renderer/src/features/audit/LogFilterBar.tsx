import type { Choice } from '../../ui';
import { ChoiceSelect, DateRangeFilter, FilterBar, nameChoices, SmallButton, TextFilter } from '../../ui';
import { useOrganizations } from '../../lib/directory';
import {
  CATEGORIES,
  CATEGORY_LABEL,
  filtered,
  NO_FILTERS,
  RESULTS,
  RESULT_LABEL,
  type LogFilters,
} from './model';

// The filters above the log: free text (the search endpoint), actor, action and resource (substrings), result,
// category and organization (pickers), and the time window. Each control writes one field of LogFilters.

type Field = keyof LogFilters;

const TEXT_FILTERS: Array<{ key: Field; label: string; placeholder: string; size?: 'wide' | 'narrow' }> = [
  {
    key: 'text',
    label: 'Search the log',
    placeholder: 'Search action, actor, resource, details…',
    size: 'wide',
  },
  { key: 'user', label: 'Actor', placeholder: 'Actor name or email' },
  { key: 'action', label: 'Action', placeholder: 'Action', size: 'narrow' },
  { key: 'resource', label: 'Resource', placeholder: 'Resource', size: 'narrow' },
];

const RESULT_CHOICES: Choice[] = RESULTS.map((r) => ({ value: r, label: RESULT_LABEL[r] }));
const CATEGORY_CHOICES: Choice[] = CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABEL[c] }));

export function LogFilterBar({
  filters,
  onChange,
}: {
  filters: LogFilters;
  onChange: (next: LogFilters) => void;
}) {
  const { orgs } = useOrganizations();
  const set = (key: Field) => (value: string) => onChange({ ...filters, [key]: value });
  const pickers: Array<{ key: Field; label: string; empty: string; options: Choice[] }> = [
    { key: 'result', label: 'Result', empty: 'Any result', options: RESULT_CHOICES },
    { key: 'category', label: 'Category', empty: 'Any category', options: CATEGORY_CHOICES },
    // One organization needs no picker: everything shown is its.
    ...(orgs.length > 1
      ? [
          {
            key: 'orgId' as const,
            label: 'Organization',
            empty: 'All organizations',
            options: nameChoices(orgs),
          },
        ]
      : []),
  ];
  return (
    <FilterBar>
      {TEXT_FILTERS.map((f) => (
        <TextFilter
          key={f.key}
          type={f.key === 'text' ? 'search' : 'text'}
          size={f.size}
          label={f.label}
          placeholder={f.placeholder}
          value={filters[f.key]}
          onChange={set(f.key)}
          testId={f.key === 'text' ? 'audit-search' : `audit-filter-${f.key}`}
        />
      ))}
      {pickers.map((p) => (
        <ChoiceSelect
          key={p.key}
          ariaLabel={p.label}
          emptyLabel={p.empty}
          value={filters[p.key]}
          onChange={set(p.key)}
          options={p.options}
          testId={`audit-filter-${p.key === 'orgId' ? 'org' : p.key}`}
        />
      ))}
      <DateRangeFilter
        from={{ value: filters.from, onChange: set('from') }}
        to={{ value: filters.to, onChange: set('to') }}
        testIds={['audit-filter-from', 'audit-filter-to']}
      />
      {filtered(filters) ? (
        <SmallButton
          tone="ghost"
          icon="close"
          onClick={() => onChange(NO_FILTERS)}
          testId="audit-filter-clear"
        >
          Clear
        </SmallButton>
      ) : null}
    </FilterBar>
  );
}
