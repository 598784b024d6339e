import { useState, type FormEvent } from 'react';
import { WEBHOOK_TEST_EVENT, type Webhook } from '../../../../server/contract';
import { useAsyncAction } from '../../lib/action';
import { Field, FormDialog, type DialogProps } from '../../ui';
import { webhooksApi } from './api';
import { EVENT_GROUP_ENTRIES } from './model';

// Send a test delivery with a chosen event type. It goes through the same pipeline as a real event (signed,
// checked, retried) and shows up in the log by push; the payload says it is a test.

export function TestDeliveryDialog({ hook, onClose }: { hook: Webhook } & Pick<DialogProps, 'onClose'>) {
  const [event, setEvent] = useState<string>(WEBHOOK_TEST_EVENT);
  const send = useAsyncAction();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (send.busy) return;
    void send.run(async () => {
      await webhooksApi.test(hook.id, event);
      onClose();
    });
  };
  return (
    <FormDialog
      title={`Send a test delivery to “${hook.name}”`}
      onClose={onClose}
      testId="webhook-test-dialog"
      onSubmit={onSubmit}
      action={send}
      submit={{ label: 'Send test', busyLabel: 'Queuing…', testId: 'webhook-test-submit' }}
    >
      <Field
        label="Event type"
        htmlFor="webhook-test-event"
        hint="The receiver sees this type in X-Service-Event-Type and the body; the data marks it as a test."
      >
        <select
          id="webhook-test-event"
          value={event}
          onChange={(e) => setEvent(e.target.value)}
          data-testid="webhook-test-event"
        >
          <option value={WEBHOOK_TEST_EVENT}>{WEBHOOK_TEST_EVENT} (test)</option>
          {EVENT_GROUP_ENTRIES.map(([group, events]) => (
            <optgroup key={group} label={group}>
              {events.map((name) => (
                <option key={name} value={name}>
                  {name}
                  {hook.events.includes(name) ? ' · subscribed' : ''}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </Field>
      {hook.status !== 'active' ? (
        <p className="small tone-warn">
          This webhook is {hook.status}: the test is queued but waits until it is resumed.
        </p>
      ) : null}
    </FormDialog>
  );
}
