import { useEffect, useRef, type ReactNode } from 'react';
import { SmallButton } from './SmallButton';
import './drawer.css';

// A panel that slides in from the right over a list and leaves the list usable: not modal, so the list behind
// it keeps its keyboard (up/down shows the next row in the drawer). Escape closes it from anywhere on the page,
// and focus goes back to where it was when the drawer opened.

export function Drawer({
  open,
  title,
  sub,
  onClose,
  children,
  testId,
  label,
}: {
  open: boolean;
  title: ReactNode;
  sub?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  /** What the drawer is about, for screen readers (the title may be rich text). */
  label: string;
}) {
  const panel = useRef<HTMLElement>(null);
  const latestClose = useRef(onClose);
  useEffect(() => {
    latestClose.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    const node = panel.current;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The list behind keeps focus when it opened the drawer (its arrows keep working); a click elsewhere
    // brings focus into the drawer so Tab reaches its content.
    if (!before || before === document.body) node?.focus({ preventScroll: true });
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      latestClose.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      // Back to the control that opened it, if it is still on the page and focus was in the drawer (which has
      // just left the page, so focus fell to the body).
      const lost = document.activeElement === document.body || node?.contains(document.activeElement);
      if (before?.isConnected && before !== document.body && lost) before.focus({ preventScroll: true });
    };
  }, [open]);

  if (!open) return null;
  return (
    <aside
      ref={panel}
      className="ui-drawer"
      role="dialog"
      aria-modal="false"
      aria-label={label}
      tabIndex={-1}
      data-testid={testId}
    >
      <header className="ui-drawer-head">
        <div className="ui-drawer-title">
          <h2>{title}</h2>
          {sub ? <div className="ui-drawer-sub">{sub}</div> : null}
        </div>
        <SmallButton
          tone="ghost"
          icon="close"
          iconSize={16}
          aria-label="Close"
          title="Close (Esc)"
          onClick={onClose}
          testId="drawer-close"
        />
      </header>
      <div className="ui-drawer-body">{children}</div>
    </aside>
  );
}
