import type { ReactNode } from 'react';
import { PageNotFound } from './PageNotFound';

/**
 * One page of a section under its path: `path` is a path the page answers exactly, or a pattern whose first group
 * is the page's parameter (an id, passed decoded to `render`).
 */
export interface SubPage {
  path: string | RegExp;
  render: (param: string) => ReactNode;
}

/** The page of `pages` that answers `pathname` (the first that does), in the section's frame; PageNotFound else. */
export function SubPages({
  pathname,
  pages,
  testId,
}: {
  pathname: string;
  pages: SubPage[];
  testId: string;
}) {
  return (
    <div className="page adm" data-testid={testId}>
      {pageAt(pathname, pages) ?? <PageNotFound pathname={pathname} />}
    </div>
  );
}

function pageAt(pathname: string, pages: SubPage[]): ReactNode {
  for (const page of pages) {
    if (typeof page.path === 'string') {
      if (page.path === pathname) return page.render('');
      continue;
    }
    const param = page.path.exec(pathname)?.[1];
    if (param) return page.render(decodeURIComponent(param));
  }
  return null;
}
