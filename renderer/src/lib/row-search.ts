import { useState } from 'react';
import { searchRows } from './forms';

/**
 * A list filtered by its search box: the rows whose texts contain the search (searchRows), and `search`, the
 * box's text and change as ListToolbar takes them (`<ListToolbar {...search} …/>`).
 */
export function useRowSearch<T>(all: T[], texts: (row: T) => Array<string | null>) {
  const [query, setQuery] = useState('');
  return { rows: searchRows(all, query, texts), search: { query, onQuery: setQuery } };
}
