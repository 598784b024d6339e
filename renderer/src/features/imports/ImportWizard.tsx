import { useMemo, useState } from 'react';
import { useAsyncAction } from '../../lib/action';
import { formatCount, plural } from '../../lib/format';
import { ActionError, Button, ProgressTrack } from '../../ui';
import { autoMap, type BuiltRow, type ImportModel, type PreviewLine } from './model';
import { MapStep, type Mapping } from './MapStep';
import { StepBar, type StepId } from './parts';
import { PreviewStep } from './PreviewStep';
import { ResultStep } from './ResultStep';
import { useImportChoices } from './choices';
import { commitAll, previewAll, ROWS_PER_REQUEST, sendableRows, type CommitRun, type Progress } from './run';
import { SourceStep, type Source } from './SourceStep';

// The frame both imports share (organizations and sites, contacts): file, column mapping, preview with the
// decisions, commit with its result. The model says what differs; this file holds the state and the order.

export function ImportWizard<R>({ model }: { model: ImportModel<R> }) {
  const [step, setStep] = useState<StepId>('source');
  const [source, setSource] = useState<Source | null>(null);
  const [mapping, setMapping] = useState<Mapping>({});
  const [lines, setLines] = useState<PreviewLine[] | null>(null);
  const choices = useImportChoices(model);
  const [progress, setProgress] = useState<Progress>({ done: 0, total: 0 });
  /** The commit's answer (null until it ends). */
  const [result, setResult] = useState<CommitRun | null>(null);
  const previewing = useAsyncAction();

  const built = useMemo<Array<BuiltRow<R>>>(() => {
    if (!source) return [];
    return source.csv.rows.map((cells) =>
      model.build((key) => {
        const column = mapping[key];
        return column === undefined ? '' : (cells[column] ?? '').trim();
      }),
    );
  }, [model, source, mapping]);
  const sendable = useMemo(() => sendableRows(built), [built]);

  const { decisionOf } = choices;
  const undecided = (lines ?? []).filter((l) => l.asks && decisionOf(l) === undefined).length;
  // Rows that cannot go in are still sent, so the server names their exact error; the button counts the rest.
  const cannot = (lines ?? []).filter((l) => model.annotations[l.annotation]?.tone === 'bad').length;
  const toImport = (lines ?? []).filter(
    (l) => decisionOf(l) !== 'leave' && model.annotations[l.annotation]?.tone !== 'bad',
  ).length;

  const restart = () => {
    setStep('source');
    setSource(null);
    setMapping({});
    setLines(null);
    choices.reset();
    setResult(null);
    previewing.reset();
  };

  const runPreview = () =>
    void previewing.run(async () => {
      const answered = await previewAll(model, sendable, setProgress);
      setLines(answered);
      choices.clearDecisions();
      setStep('preview');
    });

  const runCommit = async () => {
    if (!lines) return;
    setStep('commit');
    setResult(null);
    const run = await commitAll(
      model,
      {
        rows: sendable,
        lines: new Map(lines.map((l) => [l.index, l])),
        decisionOf,
        invalid: built.flatMap((b, index) => (b.ok ? [] : [{ index, problem: b.problem }])),
        mode: choices.mode,
      },
      setProgress,
    );
    setResult(run);
  };

  return (
    <div className="ui-panel raised im-wizard" data-testid={`import-wizard-${model.id}`}>
      <div className="im-wizard-head">
        <StepBar current={step} />
        <p className="muted small">{model.about}</p>
      </div>

      {step === 'source' || !source ? (
        <SourceStep
          fields={model.fields}
          templateName={`gatehouse-${model.id}-template.csv`}
          onSource={(next) => {
            setSource(next);
            setMapping(autoMap(model.fields, next.csv.headers));
            setStep('map');
          }}
        />
      ) : step === 'map' ? (
        <MapStep
          fields={model.fields}
          source={source}
          mapping={mapping}
          onMapping={setMapping}
          built={built}
          footer={
            <>
              <ActionError error={previewing.error} testId="import-preview-error" />
              {previewing.busy && progress.total > ROWS_PER_REQUEST ? (
                <div className="im-bar">
                  <ProgressTrack value={progress.done} max={progress.total} label="Rows previewed" />
                </div>
              ) : null}
              <div className="im-actions">
                <Button tone="ghost" icon="arrowLeft" onClick={restart} testId="import-back">
                  Another file
                </Button>
                <Button
                  tone="primary"
                  icon="chevron"
                  busy={previewing.busy}
                  busyLabel={`Previewing ${formatCount(progress.done)} of ${formatCount(progress.total)}…`}
                  disabled={sendable.length === 0}
                  onClick={runPreview}
                  testId="import-to-preview"
                >
                  Preview {plural(sendable.length, 'row')}
                </Button>
              </div>
            </>
          }
        />
      ) : step === 'preview' && lines ? (
        <PreviewStep
          model={model}
          lines={lines}
          choices={choices}
          footer={
            <div className="im-actions">
              <Button tone="ghost" icon="arrowLeft" onClick={() => setStep('map')} testId="import-back">
                Columns
              </Button>
              {undecided > 0 ? (
                <span className="muted small">
                  {plural(undecided, 'row')} still waiting for your decision.
                </span>
              ) : cannot > 0 ? (
                <span className="muted small" data-testid="import-cannot">
                  {plural(cannot, 'row')} that cannot go in will be listed as failed, with the reason.
                </span>
              ) : null}
              <Button
                tone="primary"
                icon="upload"
                disabled={undecided > 0 || toImport === 0}
                onClick={() => void runCommit()}
                testId="import-commit"
              >
                Import {plural(toImport, 'row')}
              </Button>
            </div>
          }
        />
      ) : (
        <ResultStep source={source} progress={progress} result={result} onAgain={restart} />
      )}
    </div>
  );
}
