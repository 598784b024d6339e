import { useState, type FormEvent } from 'react';
import type { UserProfile } from '../../../../server/contract';
import { ActionError } from '../../ui/ActionError';
import { Alert, Card } from '../../ui/basics';
import { PersonNameField, TextField } from '../../ui/fields';
import { useSession } from '../../lib/session';
import { profileApi, type ProfileChanges } from './api';
import { SmallButton } from '../../ui/SmallButton';

function urlProblem(value: string): string | null {
  if (!value.trim()) return null;
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Use an http(s) address.';
    return value.trim().length > 2048 ? 'At most 2048 characters.' : null;
  } catch {
    return 'Enter a full address, starting with https://';
  }
}

/** Name and avatar (PATCH /users/me). The form starts from the stored profile and sends only what changed. */
export function DetailsCard({
  profile,
  onSaved,
}: {
  profile: UserProfile;
  onSaved: (profile: UserProfile) => void;
}) {
  const user = useSession((s) => s.user);
  const setIdentity = useSession((s) => s.setIdentity);
  const [name, setName] = useState(profile.name);
  const [avatarUrl, setAvatarUrl] = useState(profile.avatarUrl ?? '');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  const nameProblem = name.trim()
    ? name.trim().length > 255
      ? 'At most 255 characters.'
      : null
    : 'Enter your name.';
  const avatarProblem = urlProblem(avatarUrl);
  const changes: ProfileChanges = {};
  if (name.trim() !== profile.name) changes.name = name.trim();
  const nextAvatar = avatarUrl.trim() || null;
  if (nextAvatar !== (profile.avatarUrl ?? null)) changes.avatarUrl = nextAvatar;
  const dirty = Object.keys(changes).length > 0;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !dirty || nameProblem || avatarProblem) return;
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const next = await profileApi.updateProfile(changes);
      onSaved(next);
      if (user) setIdentity({ ...user, name: next.name });
      setName(next.name);
      setAvatarUrl(next.avatarUrl ?? '');
      setSaved(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  /** A field's change: the new value, and the "Saved" notice goes (it spoke of the values before). */
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setSaved(false);
  };

  return (
    <Card title="Your details" icon="edit" testId="profile-details">
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <PersonNameField
          id="profile-name-input"
          label="Name"
          value={name}
          onChange={edit(setName)}
          error={nameProblem}
        />
        <TextField
          id="profile-avatar-input"
          label="Avatar URL (optional)"
          type="text"
          inputMode="url"
          autoComplete="photo"
          spellCheck={false}
          placeholder="https://…"
          value={avatarUrl}
          onChange={edit(setAvatarUrl)}
          error={avatarProblem}
          hint="An https address of a square image. Leave empty to show your initials."
        />
        <ActionError error={error} testId="profile-details-error" />
        {saved ? (
          <Alert tone="success" testId="profile-details-saved">
            Saved.
          </Alert>
        ) : null}
        <div className="pf-actions">
          <span className="muted small">
            Your email address is your sign-in name and cannot be changed here.
          </span>
          <SmallButton
            tone="primary"
            submit
            disabled={busy || !dirty || Boolean(nameProblem) || Boolean(avatarProblem)}
            testId="profile-save"
          >
            {busy ? 'Saving…' : 'Save'}
          </SmallButton>
        </div>
      </form>
    </Card>
  );
}
