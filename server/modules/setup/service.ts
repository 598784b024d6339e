import { randomUUID } from 'node:crypto';
import { ConfigError } from '../../config';
import type { AppContext } from '../../context';
import { randomToken, safeEqual } from '../../crypto';
import { badRequest } from '../../http/errors';
import { hashPassword, passwordProblem } from '../auth';
import { countUsers, insertPlatformAdmin, userById, type UserRow } from '../users';

// First run: with no users, the server either creates the administrator named by BOOTSTRAP_ADMIN_EMAIL /
// BOOTSTRAP_ADMIN_PASSWORD, or waits for the setup page, which must present the one-time token printed at start.
// The token lives only in memory: a restart prints a new one, and it dies the moment an administrator exists.

export class FirstRun {
  private token: string | null = null;

  constructor(private readonly ctx: AppContext) {}

  get required(): boolean {
    return countUsers(this.ctx.db) === 0;
  }

  /** Prepares first run at start; returns the setup token to print, or null when no setup is needed. */
  async start(): Promise<string | null> {
    if (!this.required) return null;
    const bootstrap = this.ctx.config.bootstrapAdmin;
    if (bootstrap) {
      const problem = passwordProblem(bootstrap.password, { email: bootstrap.email });
      if (problem) throw new ConfigError(`Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD: ${problem}`);
      const user = await this.createAdministrator({
        email: bootstrap.email,
        name: 'Administrator',
        password: bootstrap.password,
      });
      this.ctx.audit.record({
        orgId: null,
        actorType: 'system',
        actorId: 'bootstrap',
        action: 'setup.admin.bootstrap',
        resourceType: 'user',
        resourceId: user.id,
        resourceName: user.email,
      });
      this.ctx.log.info({ email: user.email }, 'created the bootstrap administrator');
      return null;
    }
    this.token = randomToken(24);
    return this.token;
  }

  /** Forgets the setup token: users were created another way (the demo seed), so first run is over. */
  withdraw(): void {
    this.token = null;
  }

  /** Constant-time check; the token is single use. */
  consumeToken(candidate: string): boolean {
    if (!this.token || !safeEqual(candidate, this.token)) return false;
    this.token = null;
    return true;
  }

  /** Refuses a weak administrator password before the setup token is spent on it. */
  assertPasswordAcceptable(input: { email: string; password: string }): void {
    const problem = passwordProblem(input.password, { email: input.email });
    if (problem) throw badRequest(problem, 'WEAK_PASSWORD');
  }

  async createAdministrator(input: { email: string; name: string; password: string }): Promise<UserRow> {
    this.assertPasswordAcceptable(input);
    const hash = await hashPassword(input.password);
    const now = new Date().toISOString();
    const id = randomUUID();
    insertPlatformAdmin(
      this.ctx.db,
      { id, email: input.email.trim(), name: input.name.trim(), passwordHash: hash },
      now,
    );
    return userById(this.ctx.db, id)!;
  }
}
