import type { Db } from '../../db/connection';
import { enforcedFor } from './governance-store';

/**
 * Rule 13: password sign-in is refused (with the wrong-password answer) and reset links are not sent for users an
 * active enforcing provider governs.
 */
export function ssoGoverns(db: Db, userId: string): boolean {
  return enforcedFor(db, userId);
}
