import { useState } from 'react';
import type { Webhook, WebhookHeader, WebhookRetryPolicy } from '../../../../server/contract';
import { ApiError } from '../../lib/errors';
import { formatDuration } from '../../lib/format';
import { fieldErrors, parseWhole } from '../../lib/forms';
import type { UpdateWebhookBody } from './api';
import { DEFAULT_RETRY } from './model';

// The create/edit form's state: the draft, what is wrong with it (shown once a submit was tried), the body a
// create sends or the changes an edit sends, and where a refusal from the server belongs.

export interface RetryDraft {
  maxRetries: string;
  initialDelayMs: string;
  backoffMultiplier: string;
  maxDelayMs: string;
}

const retryDraftOf = (p: WebhookRetryPolicy | null): RetryDraft => {
  const policy = p ?? DEFAULT_RETRY;
  return {
    maxRetries: String(policy.maxRetries),
    initialDelayMs: String(policy.initialDelayMs),
    backoffMultiplier: String(policy.backoffMultiplier),
    maxDelayMs: String(policy.maxDelayMs),
  };
};

/** The retry policy in the draft, or the message of its first wrong field. */
export function parseRetry(d: RetryDraft): WebhookRetryPolicy | string {
  const maxRetries = parseWhole(d.maxRetries, 0, 10, 'the number of retries');
  if (typeof maxRetries === 'string') return maxRetries;
  const initialDelayMs = parseWhole(d.initialDelayMs, 10, 3_600_000, 'the first delay');
  if (typeof initialDelayMs === 'string') return initialDelayMs;
  const backoffMultiplier = Number(d.backoffMultiplier.trim());
  if (
    !d.backoffMultiplier.trim() ||
    !Number.isFinite(backoffMultiplier) ||
    backoffMultiplier < 1 ||
    backoffMultiplier > 10
  )
    return 'The multiplier must be a number from 1 to 10.';
  const maxDelayMs = parseWhole(d.maxDelayMs, 10, 86_400_000, 'the longest delay');
  if (typeof maxDelayMs === 'string') return maxDelayMs;
  return { maxRetries, initialDelayMs, backoffMultiplier, maxDelayMs };
}

/** The waits before each retry (spec 2: min(initial * multiplier^attempt, max)). */
export function retrySchedule(p: WebhookRetryPolicy): number[] {
  return Array.from({ length: p.maxRetries }, (_, attempt) =>
    Math.min(p.initialDelayMs * p.backoffMultiplier ** attempt, p.maxDelayMs),
  );
}

const waitText = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : formatDuration(ms));

/** A policy in words: "5 retries after 1s, 2s, 4s, 8s, 16s" or "no retries". */
export function retryWords(p: WebhookRetryPolicy): string {
  const waits = retrySchedule(p);
  if (waits.length === 0) return 'no retries';
  return `${waits.length} ${waits.length === 1 ? 'retry' : 'retries'} after ${waits.map(waitText).join(', ')}`;
}

const samePolicy = (a: WebhookRetryPolicy | null, b: WebhookRetryPolicy | null) =>
  JSON.stringify(a) === JSON.stringify(b);

const sameHeaders = (a: WebhookHeader[], b: WebhookHeader[]) => JSON.stringify(a) === JSON.stringify(b);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** `needsOrg`: a partner or system caller creating a webhook names its organization. */
export function useWebhookForm(initial: Webhook | null, defaultOrg: string, needsOrg: boolean) {
  const [orgId, setOrgId] = useState(initial?.orgId ?? defaultOrg);
  const [name, setName] = useState(initial?.name ?? '');
  const [url, setUrl] = useState(initial?.url ?? 'https://');
  const [events, setEvents] = useState<Set<string>>(() => new Set(initial?.events ?? []));
  const [headers, setHeaders] = useState<WebhookHeader[]>(initial?.headers ?? []);
  const [ownRetry, setOwnRetry] = useState(initial?.retryPolicy != null);
  const [retry, setRetry] = useState<RetryDraft>(() => retryDraftOf(initial?.retryPolicy ?? null));
  const [touched, setTouched] = useState(false);

  const cleanHeaders = headers
    .map((h) => ({ key: h.key.trim(), value: h.value }))
    .filter((h) => h.key !== '' || h.value !== '');
  const policy = ownRetry ? parseRetry(retry) : null;
  const problems = {
    orgId: !needsOrg || orgId ? null : 'Choose the organization whose events this webhook sends.',
    name: !name.trim() ? 'Enter a name.' : null,
    url: !/^https:\/\/[^/\s]+/i.test(url.trim()) ? 'Enter an HTTPS address (https://…).' : null,
    events: events.size === 0 ? 'Choose at least one event.' : null,
    headers: cleanHeaders.some((h) => !HEADER_NAME.test(h.key))
      ? 'Header names are letters, digits and - (no spaces or colons).'
      : null,
    retry: typeof policy === 'string' ? policy : null,
  };
  const valid = Object.values(problems).every((p) => p === null);
  const retryPolicy = typeof policy === 'string' ? null : policy;

  /** Only the fields that differ from the webhook being edited. */
  const changes = (hook: Webhook): UpdateWebhookBody => {
    const out: UpdateWebhookBody = {};
    if (name.trim() !== hook.name) out.name = name.trim();
    if (url.trim() !== hook.url) out.url = url.trim();
    const list = [...events];
    if (list.length !== hook.events.length || list.some((e) => !hook.events.includes(e))) out.events = list;
    if (!sameHeaders(cleanHeaders, hook.headers)) out.headers = cleanHeaders;
    if (!samePolicy(retryPolicy, hook.retryPolicy)) out.retryPolicy = retryPolicy;
    return out;
  };

  return {
    orgId,
    setOrgId,
    name,
    setName,
    url,
    setUrl,
    events,
    setEvents,
    headers,
    setHeaders,
    ownRetry,
    setOwnRetry,
    retry,
    setRetry,
    retryPolicy,
    cleanHeaders,
    valid,
    show: (k: keyof typeof problems) => (touched ? problems[k] : null),
    touch: () => setTouched(true),
    changes,
  };
}

/**
 * Where the server's refusal belongs: 'Invalid webhook URL' (and a bad url field) under the URL, a field the
 * validator named under that field, anything else under the form.
 */
export function refusalOf(err: unknown): { url?: string; name?: string; headers?: string; form: unknown } {
  if (!(err instanceof ApiError)) return { form: err };
  if (err.message === 'Invalid webhook URL')
    return {
      url: 'Invalid webhook URL: the server refused this address. It must be HTTPS and reach a public host (no localhost, .local or private, loopback or link-local addresses).',
      form: null,
    };
  const fields = fieldErrors(err);
  const { url, name, headers } = fields;
  if (url || name || headers) return { url, name, headers, form: null };
  return { form: err };
}
