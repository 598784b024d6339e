import { Icon, VirtualTable } from '../../ui';
import type { AnnotationInfo } from './model';

// Small pieces the wizard's steps share: the coloured annotation badge, the step bar, the file line of a row,
// the table of rows.

/** The line of the file a data row is on (the header is line 1). */
export const fileLine = (index: number): number => index + 2;

export function AnnotationBadge({
  info,
  annotation,
}: {
  info: AnnotationInfo | undefined;
  annotation: string;
}) {
  return (
    <span
      className={`im-badge im-tone-${info?.tone ?? 'bad'}`}
      data-testid="import-annotation"
      data-annotation={annotation}
    >
      {info?.label ?? annotation}
    </span>
  );
}

export const STEPS = [
  { id: 'source', label: 'File' },
  { id: 'map', label: 'Columns' },
  { id: 'preview', label: 'Preview' },
  { id: 'commit', label: 'Import' },
] as const;
export type StepId = (typeof STEPS)[number]['id'];

export function StepBar({ current }: { current: StepId }) {
  const at = STEPS.findIndex((s) => s.id === current);
  return (
    <ol className="im-steps" aria-label="Import steps" data-testid="import-steps">
      {STEPS.map((s, i) => (
        <li
          key={s.id}
          className={i < at ? 'done' : i === at ? 'current' : undefined}
          aria-current={i === at ? 'step' : undefined}
          data-testid={`import-step-${s.id}`}
        >
          <span className="im-step-num">{i < at ? <Icon name="check" size={13} /> : i + 1}</span>
          {s.label}
        </li>
      ))}
    </ol>
  );
}

/** Room for the header row and the borders of the kit's virtual table. */
const TABLE_CHROME = 36;

/**
 * A virtualized table of the file's rows (all in memory, keyed by their index in the file), in a box as tall as
 * its rows, up to a screenful, so one row does not leave a tall empty frame and thousands scroll inside it.
 */
export function LineTable<T extends { index: number }>({
  rows,
  ...props
}: Omit<Parameters<typeof VirtualTable<T>>[0], 'list' | 'getKey'> & { rows: T[] }) {
  const height = TABLE_CHROME + Math.max(rows.length, 1) * props.spec.rowHeight;
  return (
    <div className="im-table-frame" style={{ height }}>
      <VirtualTable {...props} list={{ rows, total: rows.length }} getKey={(r) => String(r.index)} />
    </div>
  );
}
