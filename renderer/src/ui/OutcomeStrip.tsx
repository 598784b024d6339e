import type { Tone } from './basics';
import './outcome-strip.css';

// A sparkline of recent outcomes: one bar per event, oldest on the left, coloured by tone (a delivery, a job
// run, a check). Empty slots on the left keep strips of different lengths aligned in a table column.

export function OutcomeStrip({
  tones,
  slots,
  label,
  testId,
}: {
  /** Oldest first. */
  tones: readonly Tone[];
  /** How many bars the strip is wide; the latest `slots` tones are drawn. */
  slots: number;
  /** What the strip shows, for screen readers and the hover title ("Last 24 deliveries: 22 ok, 2 failed"). */
  label: string;
  testId?: string;
}) {
  const shown = tones.slice(-slots);
  const blanks = Math.max(0, slots - shown.length);
  return (
    <span className="ui-strip" role="img" aria-label={label} title={label} data-testid={testId}>
      {Array.from({ length: blanks }, (_, i) => (
        <span key={`b${i}`} className="ui-strip-bar blank" />
      ))}
      {shown.map((tone, i) => (
        <span key={i} className={`ui-strip-bar ${tone}`} data-tone={tone} />
      ))}
    </span>
  );
}
