import type { AppContext } from '../context';
import { sendDueReminders } from '../modules/access-reviews';

// Access review reminders (beyond spec 1; issue 13): two days before a review's due date its reviewer gets an
// email. The state is the review row's reminder_sent_at, so a restart neither repeats nor skips one: the first
// sweep after a restart sends whatever came due while the server was down.

const SWEEP_INTERVAL_MS = 60_000;

export function startAccessReviewReminders(ctx: AppContext, intervalMs = SWEEP_INTERVAL_MS): () => void {
  const sweep = () => {
    try {
      sendDueReminders(ctx);
    } catch (err) {
      ctx.log.error({ err }, 'access review reminder sweep failed');
    }
  };
  const first = setTimeout(sweep, 1_000);
  const timer = setInterval(sweep, intervalMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
