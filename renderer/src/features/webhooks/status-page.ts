import { useState } from 'react';

// The state both webhook lists keep (the webhooks, one webhook's deliveries): one status filter ('all' for
// none) and the page, 25 rows a page.

const PAGE_SIZE = 25;

/**
 * A list filtered by one status and paged. Choosing a status goes back to page 1; `query` is the list endpoint's
 * page, limit and status, `control` the status Segmented's value, choices ("All", then `statuses` in order,
 * capitalized) and change.
 */
export function useStatusPage<S extends string>(statuses: readonly S[]) {
  const [filter, setFilterOnly] = useState<'all' | S>('all');
  const [page, setPage] = useState(1);
  const setFilter = (next: 'all' | S) => {
    setFilterOnly(next);
    setPage(1);
  };
  const query = { page, limit: PAGE_SIZE, ...(filter === 'all' ? {} : { status: filter }) };
  const options: Array<{ value: 'all' | S; label: string }> = [
    { value: 'all', label: 'All' },
    ...statuses.map((s) => ({ value: s, label: s.charAt(0).toUpperCase() + s.slice(1) })),
  ];
  return {
    filter,
    setFilter,
    page,
    setPage,
    query,
    control: { value: filter, onChange: setFilter, options },
  };
}
