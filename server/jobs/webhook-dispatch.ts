import { createDispatcher, type WebhookRuntime } from '../modules/webhooks';

// Webhook dispatch (DESIGN §1 jobs): works the delivery queue in SQLite. It runs a pass on an interval (retries
// come due with time) and whenever it is woken (a delivery was queued, an attempt finished), so a new event goes
// out at once. The queue is the table, so a restart resumes where the last process stopped.

export function startWebhookDispatch(rt: WebhookRuntime): () => void {
  const dispatcher = createDispatcher(rt);
  let stopped = false;
  let scheduled = false;
  const pass = () => {
    scheduled = false;
    if (stopped) return;
    try {
      dispatcher.pass();
    } catch (err) {
      rt.ctx.log.error({ err }, 'webhook dispatch pass failed');
    }
  };
  rt.wake = () => {
    if (stopped || scheduled) return;
    scheduled = true;
    setImmediate(pass);
  };
  const timer = setInterval(pass, rt.pollIntervalMs);
  timer.unref();
  rt.wake();
  return () => {
    stopped = true;
    clearInterval(timer);
    rt.wake = () => undefined;
    dispatcher.stop();
    rt.agent.destroy();
  };
}
