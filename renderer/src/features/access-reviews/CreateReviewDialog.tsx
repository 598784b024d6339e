import { useState, type FormEvent } from 'react';
import { useAsyncAction } from '../../lib/action';
import { queryClient } from '../../lib/query';
import { FormDialog, SelectField, TextAreaField, TextField, type DialogProps } from '../../ui';
import { reviewsApi, reviewsKeys, usePeople } from './api';
import { useReviewerFilter, useSelfId } from './access';

// The create dialog: a name, an optional description and due date, and the reviewer (anyone active in the
// tenant; the creator by default). The server snapshots who holds which role at this moment.

/** Done with the id of the review created. */
export function CreateReviewDialog({ onClose, onDone }: DialogProps<string>) {
  const selfId = useSelfId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [reviewerId, setReviewerId] = useState(selfId ?? '');
  const [touched, setTouched] = useState(false);
  const people = usePeople(true);
  const isReviewer = useReviewerFilter();
  const reviewers = (people.data?.data ?? []).filter(isReviewer);
  const save = useAsyncAction();
  const nameError = touched && name.trim() === '' ? 'Give the review a name' : null;
  const today = new Date().toISOString().slice(0, 10);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (name.trim() === '') return;
    void save.run(async () => {
      const created = await reviewsApi.create({
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
        ...(dueDate ? { dueDate } : {}),
        ...(reviewerId ? { reviewerId } : {}),
      });
      await queryClient.invalidateQueries({ queryKey: reviewsKeys.list });
      onDone(created.id);
    });
  };

  return (
    <FormDialog
      title="New access review"
      onClose={onClose}
      testId="ar-create-dialog"
      onSubmit={submit}
      action={save}
      submit={{ label: 'Create review', busyLabel: 'Creating…', testId: 'ar-create-submit' }}
    >
      <TextField
        id="ar-name"
        label="Name"
        value={name}
        onChange={setName}
        error={nameError}
        maxLength={255}
        placeholder="Q4 2026 technician access"
        autoFocus
      />
      <TextAreaField
        id="ar-description"
        label="Description"
        hint="Optional: why this review, what to look for."
        rows={2}
        maxLength={2000}
        value={description}
        onChange={setDescription}
      />
      <div className="ar-form-row">
        <TextField
          id="ar-due"
          label="Due date"
          type="date"
          min={today}
          value={dueDate}
          onChange={setDueDate}
          hint="The reviewer is reminded by email two days before."
        />
        <SelectField
          id="ar-reviewer"
          label="Reviewer"
          value={reviewerId}
          onChange={setReviewerId}
          hint={people.loading ? 'Loading people…' : 'Gets an email when it is someone else.'}
        >
          {reviewers.length === 0 && selfId ? <option value={selfId}>You</option> : null}
          {reviewers.map((user) => (
            <option key={user.id} value={user.id}>
              {user.id === selfId ? `${user.name} (you)` : `${user.name} · ${user.email}`}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="muted small ar-form-note">
        Everyone who holds a role here right now becomes one line of the review, with what their role lets
        them do. Nobody loses access until the review is completed.
      </p>
    </FormDialog>
  );
}
