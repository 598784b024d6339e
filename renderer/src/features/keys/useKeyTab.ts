import type { Organization } from '../../../../server/contract';
import type { KeyList, KeyListQuery } from './api';
import { useFilteredPages, type KeyListKind } from './KeyListFrame';
import { useKeyModals } from './shared';

const PAGE_SIZE = 50;

/**
 * The state of a key tab that lists one organization's keys (or every organization's) a filtered page at a time,
 * as KeyListFrame takes it (spread it in): the kind, the filter and page (the kind's first option at first), the
 * page of keys, and the dialogs, which reload the list when a key is issued or removed.
 */
export function useKeyTab<K, C, Kind extends string, F extends string>(
  kind: KeyListKind<F, C> & Required<Pick<KeyListKind<F, C>, 'filter'>>,
  /** The list's query hook (useApiKeys, useEnrollmentKeys). */
  useList: (q: KeyListQuery) => KeyList<K>,
  orgs: Organization[],
  /** The organization the page is narrowed to ('' for all). */
  orgFilter: string,
) {
  const { options } = kind.filter;
  const pages = useFilteredPages<F>(options[0].value);
  const narrowing = options.find((o) => o.value === pages.filter)?.query;
  const list = useList({ page: pages.page, limit: PAGE_SIZE, orgId: orgFilter || undefined, ...narrowing });
  const modals = useKeyModals<K, C, Kind>(list.reload);
  return { kind, pages, orgs: { all: orgs, filter: orgFilter }, list, modals };
}
