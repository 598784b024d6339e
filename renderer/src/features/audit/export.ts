import { useEffect, useRef, useState } from 'react';
import {
  AUDIT_EXPORT_HEADERS as HEADERS,
  type AuditExportFormat,
  type AuditFilterQuery,
} from '../../../../server/contract';
import { saveFile } from '../../lib/clipboard';
import { auditApi } from './api';
import { attachmentName, rowCounter } from './export-count';

// An export of the log as it is filtered: the server streams at most 10,000 rows and says up front how many
// match and how many it will send; the body is read with a reader, counting rows as they arrive, then saved as
// one file through a download link.

export type ExportProgress =
  | { state: 'running'; format: AuditExportFormat; rows: number; expected: number | null; bytes: number }
  | {
      state: 'done';
      format: AuditExportFormat;
      rows: number;
      bytes: number;
      fileName: string;
      /** Rows that matched; more than `rows` when the cap cut the export. */
      total: number | null;
      truncated: boolean;
      cap: number | null;
    }
  | { state: 'failed'; format: AuditExportFormat; rows: number; error: unknown }
  | { state: 'cancelled'; format: AuditExportFormat; rows: number };

const numberHeader = (res: Response, name: string): number | null => {
  const value = res.headers.get(name);
  const n = value === null ? NaN : Number(value);
  return Number.isFinite(n) ? n : null;
};

function fallbackName(format: AuditExportFormat): string {
  const day = new Date().toISOString().slice(0, 10);
  return `audit-log_${day}.${format}`;
}

/** Runs one export at a time; `cancel` stops reading (nothing is saved). */
export function useAuditExport() {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const run = async (filters: AuditFilterQuery, q: string, format: AuditExportFormat) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    let rows = 0;
    setProgress({ state: 'running', format, rows, expected: null, bytes: 0 });
    try {
      const res = await auditApi.export(filters, q, format, controller.signal);
      const expected = numberHeader(res, HEADERS.rows);
      const parts: BlobPart[] = [];
      const counter = rowCounter(format);
      const decoder = new TextDecoder();
      let bytes = 0;
      if (res.body) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          // A fetch body's chunks sit on plain ArrayBuffers (never shared memory), which is what a Blob takes.
          parts.push(value as Uint8Array<ArrayBuffer>);
          bytes += value.byteLength;
          rows = counter.push(decoder.decode(value, { stream: true }));
          setProgress({ state: 'running', format, rows, expected, bytes });
        }
      }
      rows = counter.push(decoder.decode());
      const fileName = attachmentName(res.headers.get('content-disposition')) ?? fallbackName(format);
      saveFile(
        parts,
        fileName,
        format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json;charset=utf-8',
      );
      setProgress({
        state: 'done',
        format,
        rows: expected ?? rows,
        bytes,
        fileName,
        total: numberHeader(res, HEADERS.total),
        truncated: res.headers.get(HEADERS.truncated) === 'true',
        cap: numberHeader(res, HEADERS.cap),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError')
        setProgress({ state: 'cancelled', format, rows });
      else setProgress({ state: 'failed', format, rows, error });
    } finally {
      if (abort.current === controller) abort.current = null;
    }
  };

  return {
    progress,
    run: (filters: AuditFilterQuery, q: string, format: AuditExportFormat) => void run(filters, q, format),
    cancel: () => abort.current?.abort(),
    dismiss: () => setProgress(null),
  };
}
