// The access-reviews module's public surface (spec 1 Access reviews). server/index.ts mounts routes.ts and runs the
// reminder job (server/jobs/access-review-reminders.ts); the console hub asks reviewPushVisible who gets a push.
export { sendDueReminders } from './notify';
export { reviewPushVisible } from './tenant';
