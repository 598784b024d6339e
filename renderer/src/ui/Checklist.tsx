// A boxed list of checkboxes picking some of a few dozen things (organizations, sites): each row its name and a
// quiet detail; `selected` holds the ids ticked.

export interface ChecklistItem {
  id: string;
  name: string;
  /** The quiet detail at the end of the row (a slug, a time zone). */
  meta?: string;
}

export function Checklist({
  id,
  testId,
  optionTestId,
  items,
  selected,
  onChange,
  metaMono = false,
  empty,
}: {
  id?: string;
  testId: string;
  /** The test id of every row's checkbox; the row's name is its `data-name`. */
  optionTestId: string;
  items: ChecklistItem[];
  selected: string[];
  onChange: (selected: string[]) => void;
  metaMono?: boolean;
  /** Shown when there is nothing to pick. */
  empty?: string;
}) {
  const toggle = (itemId: string, on: boolean) =>
    onChange(on ? [...selected.filter((x) => x !== itemId), itemId] : selected.filter((x) => x !== itemId));
  return (
    <div className="adm-choice-list" id={id} data-testid={testId}>
      {items.length === 0 && empty ? <div className="adm-choice muted">{empty}</div> : null}
      {items.map((item) => (
        <label key={item.id} className="adm-choice">
          <input
            type="checkbox"
            checked={selected.includes(item.id)}
            onChange={(e) => toggle(item.id, e.target.checked)}
            data-testid={optionTestId}
            data-name={item.name}
          />
          {item.name}
          {item.meta ? (
            <span className={`adm-choice-meta${metaMono ? ' mono' : ''}`}>{item.meta}</span>
          ) : null}
        </label>
      ))}
    </div>
  );
}
