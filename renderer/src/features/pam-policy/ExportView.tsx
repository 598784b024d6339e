// Over 400 lines: one form and the export run it starts (progress, cancel, saved file); the window and paging model is in export-model.ts.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ElevationExportQuery } from '../../../../server/contract';
import { saveFile } from '../../lib/clipboard';
import { formatCount, formatDateTime, plural } from '../../lib/format';
import {
  ActionError,
  CardHead,
  Field,
  Icon,
  LabelOptions,
  nameChoices,
  SelectField,
  Spinner,
  TextField,
} from '../../ui';
import { pamPolicyApi } from './api';
import type { PolicyOrg } from './org';
import type { Format, IdParam, Job, Progress } from './export-model';
import {
  PAGE_LIMIT,
  MAX_WINDOW_DAYS,
  MAX_PAGES,
  UUID,
  EVENT_LABEL,
  EVENT_TYPES,
  lastDays,
  offsetOf,
  localToOffsetIso,
  ID_FILTERS,
  zoneName,
  stamp,
  slug,
} from './export-model';

export function ExportView({ org }: { org: PolicyOrg }) {
  const [from, setFrom] = useState(() => lastDays(7).from);
  const [to, setTo] = useState(() => lastDays(7).to);
  const [offsetNow] = useState(() => offsetOf(new Date()));
  const [format, setFormat] = useState<Format>('csv');
  // The site belongs to the organization it was picked in; another organization starts with all sites.
  const [site, setSite] = useState<{ orgId: string | null; siteId: string }>({ orgId: null, siteId: '' });
  const siteId = site.orgId === org.orgId ? site.siteId : '';
  const setSiteId = (value: string) => setSite({ orgId: org.orgId, siteId: value });
  const [eventType, setEventType] = useState('');
  const [ids, setIds] = useState<Record<IdParam, string>>({ deviceId: '', elevationRequestId: '' });
  const [tried, setTried] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const fromIso = localToOffsetIso(from);
  const toIso = localToOffsetIso(to);
  const span = fromIso && toIso ? Date.parse(toIso) - Date.parse(fromIso) : null;
  const fromError = !fromIso ? 'Enter a start.' : null;
  const toError = !toIso
    ? 'Enter an end.'
    : span !== null && span <= 0
      ? 'The end must be after the start.'
      : span !== null && span > MAX_WINDOW_DAYS * 86_400_000
        ? `At most ${MAX_WINDOW_DAYS} days in one export.`
        : null;
  const idError = (f: (typeof ID_FILTERS)[number]) => {
    const value = ids[f.param].trim();
    return value && !UUID.test(value) ? f.invalid : null;
  };
  const invalid = Boolean(fromError || toError || ID_FILTERS.some(idError));
  const running = progress?.state === 'running';
  const offset = fromIso ? offsetOf(new Date(Date.parse(fromIso))) : offsetNow;

  const quick = (days: number) => {
    const range = lastDays(days);
    setFrom(range.from);
    setTo(range.to);
  };

  /**
   * Fetches pages from `cursor` (null: the first page) until the server has no more, then saves one file.
   * `part` > 1 names a follow-up file holding only the events written since the previous one.
   */
  const fetchAll = async (job: Job, cursor: string | null) => {
    const controller = new AbortController();
    abort.current = controller;
    const parts: string[] = [];
    let header: string | null = null;
    let rows = 0;
    let pages = 0;
    let next = cursor;
    let last: Response | undefined;
    setProgress({ state: 'running', rows: 0, pages: 0, part: job.part });
    try {
      do {
        const res = await pamPolicyApi.exportPage(
          { ...job.query, cursor: next ?? undefined },
          controller.signal,
        );
        let text = await res.text();
        if (job.format === 'csv') {
          // Each page is a complete CSV file with its own header row: keep the first one only.
          const newline = text.indexOf('\n');
          const first = newline < 0 ? text : text.slice(0, newline);
          if (header === null) header = first;
          else if (first.replace(/\r$/, '') === header.replace(/\r$/, ''))
            text = newline < 0 ? '' : text.slice(newline + 1);
        }
        if (text && !text.endsWith('\n')) text += '\n';
        if (text) parts.push(text);
        const count = Number(res.headers.get('x-row-count'));
        rows += Number.isFinite(count) ? count : 0;
        pages += 1;
        last = res;
        next = res.headers.get('x-next-cursor') || null;
        setProgress({ state: 'running', rows, pages, part: job.part });
        if (res.headers.get('x-has-more') !== 'true' || !next) break;
      } while (pages < MAX_PAGES);

      const complete = last?.headers.get('x-window-complete');
      const windowComplete = complete === null || complete === undefined ? null : complete === 'true';
      const summary = {
        rows,
        pages,
        part: job.part,
        windowComplete,
        settledThrough: last?.headers.get('x-settled-through') ?? null,
        schemaVersion: last?.headers.get('x-export-schema-version') ?? null,
        // An open window keeps a cursor: coming back later fetches exactly the events written since.
        resume:
          windowComplete === false && next ? { job: { ...job, part: job.part + 1 }, cursor: next } : null,
      };
      if (rows === 0) {
        setProgress({ state: 'empty', ...summary });
        return;
      }
      const fileName = `${job.fileBase}${job.part > 1 ? `_part${job.part}` : ''}.${job.format}`;
      saveFile(
        parts,
        fileName,
        job.format === 'csv' ? 'text/csv;charset=utf-8' : 'application/x-ndjson;charset=utf-8',
      );
      setProgress({ state: 'done', fileName, ...summary });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError')
        setProgress({ state: 'cancelled', rows, pages, part: job.part });
      else setProgress({ state: 'failed', rows, pages, part: job.part, error: err });
    } finally {
      abort.current = null;
    }
  };

  const run = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (invalid || !fromIso || !toIso || !org.orgId) return;
    const query: ElevationExportQuery = {
      from: fromIso,
      to: toIso,
      format,
      limit: PAGE_LIMIT,
      orgId: org.picks ? org.orgId : undefined,
      siteId: siteId || undefined,
      eventType: EVENT_TYPES.find((t) => t === eventType),
    };
    for (const { param } of ID_FILTERS) query[param] = ids[param].trim() || undefined;
    const fileBase = `elevation-audit_${slug(org.org?.name ?? 'organization')}_${stamp(from)}_${stamp(to)}`;
    void fetchAll({ query, format, fileBase, part: 1 }, null);
  };

  return (
    <div className="ep-stack">
      <form className="card ep-card ep-export" onSubmit={run} noValidate data-testid="export-form">
        <CardHead title="Elevation audit export">
          <span className="muted small">Every state change of every request, as recorded</span>
        </CardHead>
        <div className="ep-export-window">
          <TextField
            id="export-from"
            label={`From (${zoneName() ? `${zoneName()}, ` : ''}UTC${offset})`}
            error={tried || from ? fromError : null}
            type="datetime-local"
            value={from}
            max={to || undefined}
            onChange={setFrom}
          />
          <TextField
            id="export-to"
            label="To"
            error={tried || to ? toError : null}
            type="datetime-local"
            value={to}
            min={from || undefined}
            onChange={setTo}
          />
          <div className="ep-quick" role="group" aria-label="Quick ranges">
            {(
              [
                [1, '24 h'],
                [7, '7 days'],
                [30, '30 days'],
                [90, '90 days'],
              ] as const
            ).map(([days, label]) => (
              <button
                key={days}
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => quick(days)}
                data-testid={`export-last-${days}`}
              >
                Last {label}
              </button>
            ))}
          </div>
        </div>
        <div className="adm-form-grid three">
          {org.picks && org.orgs.length > 1 ? (
            <SelectField
              id="export-org"
              label="Organization"
              value={org.orgId ?? ''}
              onChange={org.setOrgId}
              disabled={running}
            >
              <LabelOptions options={nameChoices(org.orgs)} />
            </SelectField>
          ) : null}
          <SelectField
            id="export-format"
            label="Format"
            value={format}
            onChange={(value) => setFormat(value as Format)}
          >
            <option value="csv">CSV (spreadsheets)</option>
            <option value="jsonl">JSON Lines (SIEM, scripts)</option>
          </SelectField>
          <SelectField id="export-site" label="Site" value={siteId} onChange={setSiteId}>
            <option value="">All sites</option>
            <LabelOptions options={nameChoices(org.sites)} />
          </SelectField>
          <SelectField id="export-event-type" label="Event" value={eventType} onChange={setEventType}>
            <option value="">All events</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {EVENT_LABEL[t]}
              </option>
            ))}
          </SelectField>
          {ID_FILTERS.map((f) => (
            <Field key={f.id} label={f.label} htmlFor={f.id} error={idError(f)}>
              <input
                id={f.id}
                type="text"
                className="mono"
                value={ids[f.param]}
                placeholder={f.placeholder}
                spellCheck={false}
                onChange={(e) => setIds({ ...ids, [f.param]: e.target.value })}
                data-testid={f.id}
              />
            </Field>
          ))}
        </div>
        <div className="ep-card-foot">
          <span className="muted small">
            Pages of {formatCount(PAGE_LIMIT)} rows are fetched one after another and saved as one file. Up to{' '}
            {MAX_WINDOW_DAYS} days per export.
          </span>
          <span className="grow" />
          {running ? (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => abort.current?.abort()}
              data-testid="export-cancel"
            >
              Cancel
            </button>
          ) : null}
          <button type="submit" className="btn btn-primary" disabled={running} data-testid="export-run">
            <Icon name="download" size={14} />
            {running ? 'Exporting…' : 'Export'}
          </button>
        </div>
      </form>

      {progress ? (
        <ExportStatus progress={progress} onResume={(r) => void fetchAll(r.job, r.cursor)} />
      ) : null}
    </div>
  );
}

/** One line of the export's status: an icon and what happened. */
function StatusLine({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <div className="ep-export-line">
      {icon}
      <span>{children}</span>
    </div>
  );
}

function ExportStatus({
  progress: p,
  onResume,
}: {
  progress: Progress;
  onResume: (resume: { job: Job; cursor: string }) => void;
}) {
  return (
    <section
      className={`card ep-card ep-export-status is-${p.state}`}
      data-testid="export-status"
      aria-live="polite"
    >
      {p.state === 'running' ? (
        <StatusLine icon={<Spinner />}>
          Exporting… <strong>{plural(p.rows, 'row')}</strong> so far, {plural(p.pages, 'page')}
        </StatusLine>
      ) : p.state === 'failed' ? (
        <>
          <StatusLine icon={<Icon name="alert" />}>
            The export stopped
            {p.pages ? ` after ${plural(p.pages, 'page')} (${plural(p.rows, 'row')})` : ''}. Nothing was
            saved.
          </StatusLine>
          <ActionError error={p.error} testId="export-error" />
        </>
      ) : p.state === 'cancelled' ? (
        <StatusLine icon={<Icon name="close" />}>
          Cancelled after {plural(p.rows, 'row')}. Nothing was saved.
        </StatusLine>
      ) : (
        <>
          {p.state === 'done' ? (
            <StatusLine icon={<Icon name="check" />}>
              Saved <strong className="mono">{p.fileName}</strong>: {plural(p.rows, 'row')} in{' '}
              {plural(p.pages, 'page')}.
            </StatusLine>
          ) : (
            <StatusLine icon={<Icon name="search" />}>
              No events in this window match. Nothing was saved.
            </StatusLine>
          )}
          <div className="ep-export-facts">
            {p.windowComplete === true ? (
              <span className="tone-ok" data-testid="export-complete">
                Window complete: every event in it is final.
              </span>
            ) : p.windowComplete === false ? (
              <span className="tone-warn" data-testid="export-settled">
                Settled through {p.settledThrough ? formatDateTime(p.settledThrough) : 'an earlier time'}: the
                window is still open and later events may still arrive.
              </span>
            ) : null}
            {p.schemaVersion ? <span className="muted">Schema version {p.schemaVersion}</span> : null}
          </div>
          {p.resume ? (
            <div className="ep-export-resume">
              <span className="muted small">
                Fetch the events written since, without gaps or repeats, as a further file.
              </span>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => p.resume && onResume(p.resume)}
                data-testid="export-continue"
              >
                <Icon name="refresh" size={13} />
                Fetch newer events
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
