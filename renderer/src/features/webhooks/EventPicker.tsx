import { EVENT_GROUP_ENTRIES, isSent } from './model';

// The events a webhook subscribes to, grouped as spec 2's Events table groups them (plus privileged access):
// a group's box picks or clears all of it, each event has its own box. Events of the catalog that Gatehouse
// does not send (it has no alerts, scripts or patches) stay choosable but dimmed, so nobody waits for them.

const NOT_SENT = 'Gatehouse does not send this event yet: it belongs to a feature Gatehouse does not have.';

export function EventPicker({
  selected,
  onChange,
  error,
}: {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  error?: string | null;
}) {
  const set = (events: readonly string[], on: boolean) => {
    const next = new Set(selected);
    for (const e of events) {
      if (on) next.add(e);
      else next.delete(e);
    }
    onChange(next);
  };
  return (
    <fieldset className={`wh-events${error ? ' has-error' : ''}`} data-testid="webhook-events">
      <legend className="wh-label">
        Events <span className="muted">· {selected.size} chosen · dimmed ones are not sent yet</span>
      </legend>
      <div className="wh-event-groups">
        {EVENT_GROUP_ENTRIES.map(([group, events]) => {
          const chosen = events.filter((e) => selected.has(e)).length;
          return (
            <div className="wh-event-group" key={group}>
              <label className="wh-event-group-head">
                <input
                  type="checkbox"
                  checked={chosen === events.length}
                  ref={(el) => {
                    if (el) el.indeterminate = chosen > 0 && chosen < events.length;
                  }}
                  onChange={(e) => set(events, e.target.checked)}
                  data-testid={`webhook-event-group-${group.toLowerCase().replace(/\s+/g, '-')}`}
                />
                <span>{group}</span>
                <span className="muted small">
                  {chosen}/{events.length}
                </span>
              </label>
              <div className="wh-event-list">
                {events.map((event) => (
                  <label
                    key={event}
                    className={`wh-event${selected.has(event) ? ' on' : ''}${isSent(event) ? '' : ' not-sent'}`}
                    title={isSent(event) ? undefined : NOT_SENT}
                  >
                    <input
                      type="checkbox"
                      checked={selected.has(event)}
                      onChange={(e) => set([event], e.target.checked)}
                      data-testid={`webhook-event-${event}`}
                    />
                    <span className="mono">{event}</span>
                  </label>
                ))}
              </div>
            </div>
          );
        })}
      </div>
      {error ? <div className="field-error">{error}</div> : null}
    </fieldset>
  );
}
