import { useState, type ReactNode } from 'react';
import type { ImportMode } from '../../../../server/contract';
import { formatCount, plural } from '../../lib/format';
import { Alert, RadioCards, SmallButton } from '../../ui';
import type { ImportChoices } from './choices';
import type { Decision, ImportModel, PreviewLine } from './model';
import { AnnotationBadge, fileLine, LineTable } from './parts';

// Step 3: what the server would do with each row (nothing is written yet). Every annotation is coloured and
// said in words; rows matched by name only, or matched to a deleted organization, wait for a decision taken
// row by row (or for all of them at once). Then the mode for rows that already exist.

const ROW_HEIGHT = 40;
const MODES: Array<{ value: ImportMode; title: string }> = [
  { value: 'skip', title: 'Leave them as they are' },
  { value: 'update', title: 'Update them from the file' },
];
type Filter = 'all' | 'undecided' | string;

export function PreviewStep<R>({
  model,
  lines,
  choices,
  footer,
}: {
  model: ImportModel<R>;
  lines: PreviewLine[];
  choices: ImportChoices;
  footer: ReactNode;
}) {
  const [filter, setFilter] = useState<Filter>('all');
  const { decisionOf, decide } = choices;
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(l.annotation, (counts.get(l.annotation) ?? 0) + 1);
  const asking = lines.filter((l) => l.asks);
  const undecided = asking.filter((l) => decisionOf(l) === undefined);
  const shown =
    filter === 'all'
      ? lines
      : filter === 'undecided'
        ? undecided
        : lines.filter((l) => l.annotation === filter);
  const present = Object.entries(model.annotations).filter(([a]) => counts.has(a));
  // What every waiting row may be decided as at once: the choices all of them offer.
  const common = (['attach', 'create', 'leave'] as const).filter((d) =>
    undecided.every((l) => l.asks?.includes(d)),
  );

  return (
    <div className="im-preview" data-testid="import-preview">
      <div className="im-counts" role="group" aria-label="Rows by annotation">
        <button
          type="button"
          className={`im-count${filter === 'all' ? ' on' : ''}`}
          onClick={() => setFilter('all')}
          data-testid="import-count-all"
        >
          <strong>{formatCount(lines.length)}</strong> all rows
        </button>
        {present.map(([annotation, info]) => (
          <button
            key={annotation}
            type="button"
            className={`im-count im-tone-${info.tone}${filter === annotation ? ' on' : ''}`}
            onClick={() => setFilter(annotation)}
            data-testid={`import-count-${annotation}`}
            data-count={counts.get(annotation)}
          >
            <strong>{formatCount(counts.get(annotation) ?? 0)}</strong> {info.label.toLowerCase()}
          </button>
        ))}
        {asking.length > 0 ? (
          <button
            type="button"
            className={`im-count im-tone-ask${filter === 'undecided' ? ' on' : ''}`}
            onClick={() => setFilter('undecided')}
            data-testid="import-count-undecided"
            data-count={undecided.length}
          >
            <strong>{formatCount(undecided.length)}</strong> waiting for you
          </button>
        ) : null}
      </div>

      <ul className="im-legend" data-testid="import-legend">
        {present.map(([annotation, info]) => (
          <li key={annotation}>
            <AnnotationBadge info={info} annotation={annotation} />
            <span>{info.explain}</span>
          </li>
        ))}
      </ul>

      {undecided.length > 0 ? (
        <Alert tone="warning" testId="import-undecided">
          <div className="im-decide-all">
            <span>
              {plural(undecided.length, 'row')} matched an existing{' '}
              {model.id === 'organizations' ? 'organization' : 'contact'} without proof it is the same: decide
              each below, or all at once.
            </span>
            <span className="im-decide-all-buttons">
              {common.map((d) => (
                <SmallButton
                  key={d}
                  tone="secondary"
                  onClick={() => decide(undecided, d)}
                  testId={`import-decide-all-${d}`}
                >
                  {d === 'attach' ? 'Attach all' : d === 'create' ? 'Create all new' : 'Leave all out'}
                </SmallButton>
              ))}
            </span>
          </div>
        </Alert>
      ) : null}
      <LineTable
        spec={{
          label: 'Import preview',
          rowHeight: ROW_HEIGHT,
          className: 'im-row',
          minWidth: 920,
          scrollTestId: 'import-preview-scroll',
        }}
        rows={shown}
        resetKey={filter}
        head={
          <>
            <div role="columnheader">Line</div>
            <div role="columnheader">Annotation</div>
            <div role="columnheader">{model.columns.subject}</div>
            <div role="columnheader">{model.columns.detail}</div>
            <div role="columnheader">What happens</div>
          </>
        }
        renderRow={(line, row) => {
          const info = model.annotations[line.annotation];
          const decision = decisionOf(line);
          return (
            <div
              {...row}
              className={`im-row${line.asks && decision === undefined ? ' im-waiting' : ''}`}
              data-testid="import-preview-row"
              data-line={fileLine(line.index)}
              data-subject={line.subject}
              data-annotation={line.annotation}
            >
              <div role="cell" className="muted mono">
                {fileLine(line.index)}
              </div>
              <div role="cell">
                <AnnotationBadge info={info} annotation={line.annotation} />
              </div>
              <div role="cell" className="ellipsis" title={line.subject}>
                {line.subject}
              </div>
              <div role="cell" className="ellipsis muted" title={line.detail ?? undefined}>
                {line.detail ?? '—'}
              </div>
              <div role="cell" className="im-what">
                {line.asks ? (
                  <select
                    className={decision === undefined ? 'im-undecided' : undefined}
                    aria-label={`Decision for line ${fileLine(line.index)}`}
                    value={decision ?? ''}
                    onChange={(e) => decide([line], e.target.value as Decision)}
                    data-testid="import-decision"
                  >
                    {decision === undefined ? <option value="">Decide…</option> : null}
                    {line.asks.map((d) => (
                      <option key={d} value={d}>
                        {model.choiceLabel(d, line)}
                      </option>
                    ))}
                  </select>
                ) : null}
                <span
                  className={`ellipsis${line.note ? ' im-note' : ' muted'}`}
                  title={line.note ?? undefined}
                >
                  {line.note ?? whatHappens(line, info?.tone)}
                </span>
              </div>
            </div>
          );
        }}
      />

      <div className="im-mode">
        <span className="label">Rows that already exist</span>
        <div className="im-mode-choices">
          <RadioCards<ImportMode>
            name="import-mode"
            options={MODES.map((m) => ({ ...m, desc: model.modeHelp[m.value] }))}
            value={choices.mode}
            onChange={choices.setMode}
            testId={(m) => `import-mode-${m}`}
          />
        </div>
      </div>
      {footer}
    </div>
  );
}

/** The words beside a row without a note: what commit does with it. */
function whatHappens(line: PreviewLine, tone: string | undefined): string {
  if (tone === 'new') return 'Will be created';
  if (tone === 'linked')
    return line.matchedLabel ? `Goes to ${line.matchedLabel}` : 'Goes to the linked record';
  // A row that asks says what it matched in its choices.
  return '';
}
