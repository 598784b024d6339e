import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';

/** The one error type of the API. Handlers throw it; the error middleware renders `{error, code?, ...extra}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code?: string, extra?: Record<string, unknown>) =>
  new HttpError(400, message, code, extra);
export const unauthorized = (message = 'Authentication required', code?: string) =>
  new HttpError(401, message, code);
export const forbidden = (message = 'Forbidden', code?: string, extra?: Record<string, unknown>) =>
  new HttpError(403, message, code, extra);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, code?: string) => new HttpError(409, message, code);

/** Errors raised by express itself or its helpers (http-errors style) carry the status they mean. */
interface StatusError {
  status?: unknown;
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof HttpError) {
      res.set(err.headers);
      res
        .status(err.status)
        .json({ error: err.message, ...(err.code ? { code: err.code } : {}), ...err.extra });
      return;
    }
    // A path parameter that is not valid percent-encoding: express reports it as a URIError with status 400.
    if (err instanceof URIError && (err as { status?: number }).status === 400) {
      res.status(400).json({ error: 'Malformed URL', code: 'INVALID_PATH' });
      return;
    }
    // Any other client error raised below our handlers is still the client's fault, never a 500. (Request bodies
    // never get here: body.ts throws HttpError.)
    const status = (err as StatusError | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json({ error: STATUS_CODES[status] ?? 'Bad request' });
      return;
    }
    log.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
    res.status(500).json({ error: 'Internal server error' });
  };
}
