import type { AppContext } from '../../context';
import { claimReminder, reviewsDueForReminder, tenantNameOf, type ReviewRow } from './store';

// Beyond the spec (issue 13): the reviewer hears about a review by email through the outbox, when it is assigned
// to them and two days before it is due. The reminder's state is the review row (`reminder_sent_at`), claimed
// before the email is queued, so neither a second sweep nor a restart sends it twice.

/** How long before the due date the reminder goes out. */
export const REMINDER_LEAD_MS = 2 * 24 * 60 * 60 * 1000;

const day = (iso: string) => iso.slice(0, 10);

function reviewLink(ctx: AppContext, review: ReviewRow): string {
  return `${ctx.publicOrigin}/access-reviews/${review.id}`;
}

/** To the reviewer, when someone else created the review for them (nobody needs an email about their own act). */
export function mailAssignment(ctx: AppContext, review: ReviewRow, assignedBy: string): void {
  if (!review.reviewer_email) return;
  const where = tenantNameOf(ctx.db, review);
  ctx.mailer.send({
    kind: 'email',
    to: review.reviewer_email,
    subject: `Access review assigned to you: ${review.name}`,
    text: [
      `${assignedBy} asked you to review who holds access in ${where}: "${review.name}"` +
        ` (${review.item_count} ${review.item_count === 1 ? 'person' : 'people'}).`,
      review.due_date ? `It is due on ${day(review.due_date)}.` : 'It has no due date.',
      '',
      `Open the review: ${reviewLink(ctx, review)}`,
    ].join('\n'),
  });
}

function mailReminder(ctx: AppContext, review: ReviewRow): void {
  if (!review.reviewer_email || !review.due_date) return;
  const left = review.item_count - review.decided_count;
  ctx.mailer.send({
    kind: 'email',
    to: review.reviewer_email,
    subject: `Access review due ${day(review.due_date)}: ${review.name}`,
    text: [
      `The access review "${review.name}" in ${tenantNameOf(ctx.db, review)} is due on ${day(review.due_date)}.`,
      left > 0
        ? `${left} of ${review.item_count} decisions are still open.`
        : 'Every decision is made; it only needs completing.',
      '',
      `Open the review: ${reviewLink(ctx, review)}`,
    ].join('\n'),
  });
}

/** Whether a review created now with this due date is already inside the reminder window. */
export function dueWithinReminderWindow(dueDate: string | null, now = Date.now()): boolean {
  return dueDate !== null && Date.parse(dueDate) - now <= REMINDER_LEAD_MS;
}

/** Sends every reminder that has come due; returns how many went out. Run by server/jobs/. */
export function sendDueReminders(ctx: AppContext, now = Date.now()): number {
  const horizon = new Date(now + REMINDER_LEAD_MS).toISOString();
  const at = new Date(now).toISOString();
  let sent = 0;
  for (const review of reviewsDueForReminder(ctx.db, horizon)) {
    if (!claimReminder(ctx.db, review.id, at)) continue;
    mailReminder(ctx, review);
    sent++;
  }
  return sent;
}
