import './progress-track.css';

/**
 * A thin bar that fills as work gets done (an export's rows, a review's decisions). The owner lays out the words
 * around it; `done` turns the fill to the "finished" tone.
 */
export function ProgressTrack({
  value,
  max,
  label,
  done,
}: {
  value: number;
  max: number;
  label?: string;
  done?: boolean;
}) {
  // Nothing to do is all done (a review without people).
  const percent = max > 0 ? Math.min(100, (value / max) * 100) : 100;
  return (
    <span
      className="ui-progress"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-label={label}
    >
      <span className={`ui-progress-fill${done ? ' done' : ''}`} style={{ width: `${percent}%` }} />
    </span>
  );
}
