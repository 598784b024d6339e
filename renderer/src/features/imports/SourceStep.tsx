import { useRef, useState, type DragEvent } from 'react';
import { saveFile } from '../../lib/clipboard';
import { Alert, Button, Icon, Segmented, SmallButton } from '../../ui';
import { parseCsv, toCsv, type ParsedCsv } from './csv';
import type { FieldSpec } from './model';

// Step 1: the file. Upload (or drop) a CSV, or paste its text; the first row names the columns. A template with
// every field the import knows is one click away.

export interface Source {
  name: string;
  csv: ParsedCsv;
}

type Way = 'upload' | 'paste';

export function SourceStep({
  fields,
  templateName,
  onSource,
}: {
  fields: readonly FieldSpec[];
  templateName: string;
  onSource: (source: Source) => void;
}) {
  const [way, setWay] = useState<Way>('upload');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const take = (name: string, content: string) => {
    const parsed = parseCsv(content);
    if (!parsed.ok) {
      setProblem(`${name}: ${parsed.message}`);
      return;
    }
    setProblem(null);
    onSource({ name, csv: parsed.csv });
  };

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    take(file.name, await file.text());
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void readFile(e.dataTransfer.files[0]);
  };

  return (
    <div className="im-source" data-testid="import-source">
      <div className="im-source-head">
        <Segmented<Way>
          label="How the rows arrive"
          value={way}
          onChange={setWay}
          testId="import-way"
          options={{ upload: 'Upload a file', paste: 'Paste CSV text' }}
        />
        <SmallButton
          tone="ghost"
          icon="download"
          testId="import-template"
          onClick={() =>
            saveFile(
              [
                toCsv(
                  fields.map((f) => f.key),
                  [],
                ),
              ],
              templateName,
              'text/csv;charset=utf-8',
            )
          }
        >
          Download a template
        </SmallButton>
      </div>

      {way === 'upload' ? (
        <div
          className={`ui-panel dashed im-drop${dragging ? ' over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <Icon name="upload" size={28} />
          <strong>Drop a CSV file here</strong>
          <span className="muted small">
            Comma, semicolon or tab separated, UTF-8, with a header row. Quoted cells may hold commas and line
            breaks.
          </span>
          <Button
            tone="secondary"
            icon="plus"
            onClick={() => input.current?.click()}
            testId="import-choose-file"
          >
            Choose a file
          </Button>
          <input
            ref={input}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            hidden
            data-testid="import-file"
            onChange={(e) => {
              void readFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
      ) : (
        <div className="im-paste">
          <label htmlFor="import-paste" className="label">
            CSV text, header row first
          </label>
          <textarea
            id="import-paste"
            className="mono"
            rows={12}
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={`${fields
              .slice(0, 3)
              .map((f) => f.key)
              .join(',')}\n…`}
            data-testid="import-paste"
          />
          <div className="im-actions">
            <Button
              tone="primary"
              icon="chevron"
              disabled={!text.trim()}
              onClick={() => take('Pasted text', text)}
              testId="import-paste-use"
            >
              Read these rows
            </Button>
          </div>
        </div>
      )}
      {problem ? <Alert testId="import-source-error">{problem}</Alert> : null}
    </div>
  );
}
