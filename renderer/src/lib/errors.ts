import type { ApiErrorBody } from '../../../server/contract';

// The console's one error type for API answers, and the wording shown for any caught error.

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** Seconds from a Retry-After header (429), when the server sent one. */
  readonly retryAfterSeconds: number | undefined;
  readonly body: ApiErrorBody | undefined;

  constructor(
    status: number,
    message: string,
    code?: string,
    extra?: { retryAfterSeconds?: number | undefined; body?: ApiErrorBody | undefined },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = extra?.retryAfterSeconds;
    this.body = extra?.body;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/** Human wording for an error caught from `api()`. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 429) {
      const wait = err.retryAfterSeconds;
      const hint =
        wait === undefined
          ? 'Wait a moment before trying again.'
          : `Try again in ${wait >= 90 ? `${Math.ceil(wait / 60)} minutes` : `${wait} second${wait === 1 ? '' : 's'}`}.`;
      // The wait is said once, here: a server sentence of its own ("Try again later.") would say it twice.
      const said = err.message.replace(/\s*Try again later\.?$/i, '').replace(/\.?$/, '.');
      return `${said} ${hint}`;
    }
    return err.message;
  }
  if (err instanceof Error) return err.message;
  return 'Something went wrong';
}
