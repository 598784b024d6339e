import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import { Icon, type IconName } from './Icon';
import './kit.css';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  icon?: IconName;
  danger?: boolean;
  testId: string;
  hidden?: boolean;
}

type MenuItemOptions = Partial<Pick<MenuItem, 'label' | 'hidden'>>;

/** What the common row actions look like; the call site adds the test id and what it does. */
const ROW_ACTION_LOOKS = {
  open: { label: 'Open', icon: 'chevron' },
  edit: { label: 'Edit', icon: 'edit' },
  remove: { label: 'Delete', icon: 'trash', danger: true },
} satisfies Record<string, Pick<MenuItem, 'label' | 'icon' | 'danger'>>;

function rowActionOf(look: Pick<MenuItem, 'label' | 'icon' | 'danger'>) {
  return (testId: string, onSelect: () => void, more?: MenuItemOptions): MenuItem => ({
    ...look,
    testId,
    onSelect,
    ...more,
  });
}

/**
 * The actions nearly every list has, so they read and look the same everywhere: Open (chevron), Edit (pencil) and
 * Delete (bin, in the danger tone). `more` renames one ("Delete webhook") or hides it for this row.
 */
export const rowAction = {
  open: rowActionOf(ROW_ACTION_LOOKS.open),
  edit: rowActionOf(ROW_ACTION_LOOKS.edit),
  remove: rowActionOf(ROW_ACTION_LOOKS.remove),
};

/** A row's actions behind one button: keeps dense tables calm. Opens below the button, right-aligned. */
export function RowMenu({ items, label, testId }: { items: MenuItem[]; label: string; testId: string }) {
  const [open, setOpen] = useState(false);
  const [pos, setPos] = useState<{ top: number; right: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const visible = items.filter((i) => !i.hidden);

  useLayoutEffect(() => {
    if (!open) return;
    // preventScroll: focusing the first item must not scroll the page, which would close the menu it opened.
    menu.current?.querySelector<HTMLButtonElement>('button')?.focus({ preventScroll: true });
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      const target = event.target as Node | null;
      // A press or a scroll inside the menu or on its button is the menu's own; anything else closes it.
      if (target && (menu.current?.contains(target) || button.current?.contains(target))) return;
      setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('scroll', close, true);
    window.addEventListener('resize', close);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('scroll', close, true);
      window.removeEventListener('resize', close);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (visible.length === 0) return null;

  const toggle = () => {
    const rect = button.current?.getBoundingClientRect();
    if (rect) setPos({ top: rect.bottom + 4, right: Math.max(8, window.innerWidth - rect.right) });
    setOpen((o) => !o);
  };

  const onMenuKey = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const buttons = [...(menu.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      event.key === 'ArrowDown' ? (at + 1) % buttons.length : (at - 1 + buttons.length) % buttons.length;
    buttons[next]?.focus();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-sm adm-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        title={label}
        onClick={toggle}
        data-testid={testId}
      >
        <span aria-hidden="true">•••</span>
      </button>
      {open && pos ? (
        <div
          ref={menu}
          className="adm-menu"
          role="menu"
          style={{ top: pos.top, right: pos.right }}
          onKeyDown={onMenuKey}
        >
          {visible.map((item) => (
            <button
              key={item.testId}
              type="button"
              role="menuitem"
              className={`adm-menu-item${item.danger ? ' danger' : ''}`}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
              data-testid={item.testId}
            >
              {item.icon ? <Icon name={item.icon} size={14} /> : <span className="adm-menu-spacer" />}
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </>
  );
}

/**
 * The actions cell at the end of a table row: the row's menu, labelled "Actions for <name>". A click in it stays
 * in it, so a row that opens on click does not open when its menu is used.
 */
export function RowActions({ name, items, testId }: { name: string; items: MenuItem[]; testId: string }) {
  return (
    <td className="actions" onClick={(e) => e.stopPropagation()}>
      <RowMenu label={`Actions for ${name}`} testId={testId} items={items} />
    </td>
  );
}
