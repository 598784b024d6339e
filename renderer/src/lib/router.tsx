// A tiny history-API router: one zustand store with the current location, and a Link that intercepts clicks.
// The server answers unknown paths with index.html, so deep links and reloads land here.

import { create } from 'zustand';
import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from 'react';

interface RouterState {
  pathname: string;
  search: string;
  hash: string;
  navigate: (to: string, options?: { replace?: boolean }) => void;
}

function current(): Pick<RouterState, 'pathname' | 'search' | 'hash'> {
  const { pathname, search, hash } = window.location;
  return { pathname: normalize(pathname), search, hash };
}

function normalize(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/';
  return pathname || '/';
}

export const useRouter = create<RouterState>((set) => ({
  ...current(),
  navigate: (to, options) => {
    const url = new URL(to, window.location.href);
    const target = `${url.pathname}${url.search}${url.hash}`;
    const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    if (target !== here) {
      if (options?.replace) window.history.replaceState(null, '', target);
      else window.history.pushState(null, '', target);
    }
    set(current());
    if (!options?.replace && !url.hash) window.scrollTo(0, 0);
  },
}));

window.addEventListener('popstate', () => useRouter.setState(current()));
window.addEventListener('hashchange', () => useRouter.setState(current()));

export function navigate(to: string, options?: { replace?: boolean }): void {
  useRouter.getState().navigate(to, options);
}

export function usePathname(): string {
  return useRouter((s) => s.pathname);
}

/** The id a list-or-detail section shows (`<base>/<id>`, decoded), or null on the list itself (`<base>`). */
export function usePathId(base: string): string | null {
  const id = usePathname().slice(base.length).replace(/^\/+/, '').split('/')[0];
  return id ? decodeURIComponent(id) : null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  replace?: boolean;
  children?: ReactNode;
};

export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (target && target !== '_self') return;
    event.preventDefault();
    navigate(to, { replace });
  };
  return <a href={to} target={target} onClick={handle} {...rest} />;
}

/**
 * A list row's click handler that opens `to`, unless the click landed on one of the row's own controls
 * (`controls`: its links and buttons unless told otherwise), which handle their own clicks.
 */
export function openOnRowClick(to: string, controls = 'a, button') {
  return (event: MouseEvent) => {
    if ((event.target as HTMLElement).closest(controls)) return;
    navigate(to);
  };
}
