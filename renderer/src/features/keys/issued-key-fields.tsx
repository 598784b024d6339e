import { useState } from 'react';
import { parseWhole } from '../../lib/forms';
import { Field, TextField } from '../../ui';
import { ApiKeyExpiryPicker, useApiKeyExpiry } from './expiry';
import { KeyNameField } from './shared';

// The fields an issued key (API key, partner key) is created with besides its scopes, as one state and the
// fields over it.

/**
 * The fields an issued key (API key, partner key) is created with besides its scopes: name, hourly limit and
 * expiry; `problems` feed useCreateSubmit, `body()` is what to send (null while the limit is not a number).
 */
export function useIssuedKeyFields(initialRate: string, rateNoun: string) {
  const [name, setName] = useState('');
  const [rateLimit, setRateLimit] = useState(initialRate);
  const expiry = useApiKeyExpiry();
  const rate = parseWhole(rateLimit, 1, 100_000, rateNoun);
  const problems = {
    name: !name.trim() ? 'Enter a name.' : name.trim().length > 255 ? 'At most 255 characters.' : null,
    rateLimit: typeof rate === 'string' ? rate : null,
    expiry: expiry.problem,
  };
  const body = () => {
    if (typeof rate !== 'number') return null;
    const expiresAt = expiry.resolve();
    return { name: name.trim(), rateLimit: rate, ...(expiresAt ? { expiresAt } : {}) };
  };
  return { name, setName, rateLimit, setRateLimit, expiry, problems, body };
}

export type IssuedKeyFields = ReturnType<typeof useIssuedKeyFields>;

/** An issued key's name field, over its useIssuedKeyFields state (`<idPrefix>-name`). */
export function IssuedKeyNameField({
  idPrefix,
  fields,
  show,
  hint,
}: {
  idPrefix: string;
  fields: IssuedKeyFields;
  show: (problem: 'name') => string | null;
  hint: string;
}) {
  return (
    <KeyNameField
      idPrefix={idPrefix}
      value={fields.name}
      onChange={fields.setName}
      error={show('name')}
      hint={hint}
    />
  );
}

/**
 * The row under an issued key's scopes: its hourly limit (`<idPrefix>-rate-limit`) and when it expires (a picker
 * whose field is `api-key-expiry` for every issued kind).
 */
export function IssuedKeyLimits({
  idPrefix,
  label,
  hint,
  fields,
  show,
}: {
  idPrefix: string;
  label: string;
  hint: string;
  fields: IssuedKeyFields;
  show: (problem: 'rateLimit' | 'expiry') => string | null;
}) {
  return (
    <div className="form-row">
      <TextField
        id={`${idPrefix}-rate-limit`}
        label={label}
        error={show('rateLimit')}
        hint={hint}
        type="text"
        inputMode="numeric"
        value={fields.rateLimit}
        onChange={fields.setRateLimit}
      />
      <Field label="Expires" htmlFor="api-key-expiry" error={show('expiry')}>
        <ApiKeyExpiryPicker expiry={fields.expiry} />
      </Field>
    </div>
  );
}
