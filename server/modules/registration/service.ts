import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import type { AcceptedResponse, VerifyEmailResponse } from '../../contract/registration';
import { clientInfo } from '../../http/client-info';
import { badRequest, HttpError } from '../../http/errors';
import { AUTH_LIMITS, type LimitRule } from '../../http/rate-limit';
import { completeLogin, hashPassword, passwordProblem } from '../auth';
import {
  consumeEmailToken,
  findUsableEmailToken,
  issueEmailToken,
  type EmailTokenPurpose,
} from './email-token-store';
import { registrationPayload, type RegisterPartnerInput, type RegisterUserInput } from './schemas';
import { freePartnerSlug, insertActiveUser, insertPartnerWithAdmin } from './store';
import { transaction } from '../../db/after-commit';
import { userByEmail, userById } from '../users';

// Self-registration (spec 1 §8). Asking to register creates nothing but a single-use emailed token; the answer is
// the same for every accepted input, and the work behind it is the same too (the password is always hashed with
// argon2id, an email is always sent), so neither the body nor the timing tells whether an address has an account.

/** How long a registration link works (the spec leaves it open; a day covers "I'll click it tonight"). */
export const REGISTRATION_TOKEN_TTL_SECONDS = 24 * 3600;
const REGISTRATION_PURPOSES: EmailTokenPurpose[] = ['register_partner', 'register_user'];

export const REGISTRATION_ACCEPTED: AcceptedResponse = {
  success: true,
  message:
    'Check your inbox: if this address can be registered, we have sent it a verification link. The link is valid for 24 hours.',
};
const TOO_MANY_REGISTRATIONS = 'Too many registration attempts';
const INVALID_TOKEN = 'invalid or expired token';

const invalidToken = () => new HttpError(400, INVALID_TOKEN);

function assertStrongPassword(password: string, email: string): void {
  const problem = passwordProblem(password, { email });
  if (problem) throw badRequest(problem, 'WEAK_PASSWORD');
}

interface RegistrationRequest {
  purpose: 'register_partner' | 'register_user';
  limit: LimitRule;
  email: string;
  name: string;
  password: string;
  companyName?: string;
}

async function requestRegistration(
  ctx: AppContext,
  req: Request,
  input: RegistrationRequest,
): Promise<AcceptedResponse> {
  // Strength first: a refused password never reaches the mailer, so it does not spend one of the few attempts.
  assertStrongPassword(input.password, input.email);
  ctx.limiter.enforce([[input.limit, clientInfo(req).ipAddress]], TOO_MANY_REGISTRATIONS);
  const passwordHash = await hashPassword(input.password);
  const existing = userByEmail(ctx.db, input.email);
  if (existing) {
    // The owner learns that someone tried; the requester learns nothing. Nothing the requester typed (company or
    // person name) goes into this email, so it cannot be used to send arbitrary text to someone else's inbox.
    ctx.mailer.send({
      kind: 'email',
      to: existing.email,
      subject: 'Someone tried to register with your address',
      text: [
        'Someone asked to register a new Gatehouse account with this email address, which already has an account.',
        'Nothing was created and your account was not changed.',
        '',
        `If it was you, sign in at ${ctx.publicOrigin}/login (use "Forgot password" there if you need to).`,
        'If it was not you, you can ignore this email.',
      ].join('\n'),
    });
    return REGISTRATION_ACCEPTED;
  }
  const { token } = issueEmailToken(ctx.db, {
    purpose: input.purpose,
    email: input.email,
    payload: {
      name: input.name,
      passwordHash,
      ...(input.companyName !== undefined ? { companyName: input.companyName } : {}),
    },
    ttlSeconds: REGISTRATION_TOKEN_TTL_SECONDS,
    // The newest request wins: an older link cannot complete with an earlier password or company name.
    supersede: { purposes: REGISTRATION_PURPOSES, by: 'email' },
  });
  const link = `${ctx.publicOrigin}/verify-email?token=${token}`;
  const what = input.companyName
    ? `register the company "${input.companyName}" on Gatehouse, with you as its administrator`
    : 'create a Gatehouse account';
  ctx.mailer.send({
    kind: 'email',
    to: input.email,
    subject: 'Confirm your email address for Gatehouse',
    text: [
      `Hello ${input.name},`,
      '',
      `Someone (hopefully you) asked to ${what} with this email address.`,
      '',
      `Confirm it here: ${link}`,
      '',
      'The link is valid for 24 hours and works once. If you did not ask for this, ignore this email: nothing has',
      'been created.',
    ].join('\n'),
  });
  return REGISTRATION_ACCEPTED;
}

export function requestPartnerRegistration(
  ctx: AppContext,
  req: Request,
  input: RegisterPartnerInput,
): Promise<AcceptedResponse> {
  return requestRegistration(ctx, req, {
    purpose: 'register_partner',
    limit: AUTH_LIMITS.registerPartnerPerIp,
    email: input.email,
    name: input.name,
    password: input.password,
    companyName: input.companyName,
  });
}

export function requestUserRegistration(
  ctx: AppContext,
  req: Request,
  input: RegisterUserInput,
): Promise<AcceptedResponse> {
  return requestRegistration(ctx, req, {
    purpose: 'register_user',
    limit: AUTH_LIMITS.registerUserPerIp,
    email: input.email,
    name: input.name,
    password: input.password,
  });
}

class SlugsExhausted extends Error {}

type Completed =
  | { kind: 'invalid' }
  | { kind: 'user'; userId: string }
  | { kind: 'partner'; userId: string; partnerId: string; name: string; slug: string };

/**
 * Consumes the token and creates what it stands for, in one transaction. Returns instead of throwing for token
 * failures, so the consumption commits: a token whose address was taken in the meantime is spent, not retried.
 */
function completeRegistration(ctx: AppContext, token: string): Completed {
  const { db } = ctx;
  return transaction(db, (): Completed => {
    const row = findUsableEmailToken(db, token, REGISTRATION_PURPOSES);
    if (!row || !consumeEmailToken(db, row.token_hash)) return { kind: 'invalid' };
    if (userByEmail(ctx.db, row.email)) return { kind: 'invalid' };
    const parsed = registrationPayload.safeParse(JSON.parse(row.payload));
    if (!parsed.success) return { kind: 'invalid' };
    const payload = parsed.data;
    const now = new Date().toISOString();
    if (row.purpose === 'register_user') {
      const userId = insertActiveUser(db, {
        email: row.email,
        name: payload.name,
        passwordHash: payload.passwordHash,
        now,
      });
      return { kind: 'user', userId };
    }
    const companyName = payload.companyName;
    if (!companyName) return { kind: 'invalid' };
    const slug = freePartnerSlug(db, companyName);
    // Thrown, not returned: rolls the consumption back, so the same link works once an operator frees a slug.
    if (!slug) throw new SlugsExhausted();
    const userId = insertActiveUser(db, {
      email: row.email,
      name: payload.name,
      passwordHash: payload.passwordHash,
      now,
    });
    const { partnerId } = insertPartnerWithAdmin(db, {
      name: companyName,
      slug,
      billingEmail: row.email,
      userId,
      now,
    });
    return { kind: 'partner', userId, partnerId, name: companyName, slug };
  });
}

export async function verifyEmail(
  ctx: AppContext,
  req: Request,
  res: Response,
  token: string,
): Promise<VerifyEmailResponse> {
  const client = clientInfo(req);
  let outcome: Completed;
  try {
    // With registration switched off, links sent before the switch no longer create accounts either.
    outcome = ctx.guard.check(
      { kind: 'verify_email', req },
      (): Completed =>
        ctx.config.enableRegistration ? completeRegistration(ctx, token) : { kind: 'invalid' },
      (found) => found.kind !== 'invalid',
    );
  } catch (err) {
    if (err instanceof SlugsExhausted) {
      throw new HttpError(500, 'Unable to generate unique company identifier');
    }
    throw err;
  }
  if (outcome.kind === 'invalid') throw invalidToken();
  const user = userById(ctx.db, outcome.userId);
  if (!user) throw invalidToken();
  const userSummary = { id: user.id, email: user.email, name: user.name, mfaEnabled: false };

  if (outcome.kind === 'user') {
    ctx.audit.record({
      orgId: null,
      actorType: 'user',
      actorId: user.id,
      actorEmail: user.email,
      action: 'user.register',
      resourceType: 'user',
      resourceId: user.id,
      resourceName: user.email,
      details: { source: 'self_registration' },
      ...client,
    });
    // No tenant yet, so nothing to sign in to: an administrator invites the account into a partner or org.
    return { verified: true, user: userSummary, partner: null, mfaRequired: false, tokens: null };
  }

  ctx.audit.record({
    orgId: null,
    partnerId: outcome.partnerId,
    actorType: 'user',
    actorId: user.id,
    actorEmail: user.email,
    action: 'partner.create',
    resourceType: 'partner',
    resourceId: outcome.partnerId,
    resourceName: outcome.name,
    details: { slug: outcome.slug, type: 'msp', plan: 'free', status: 'active', source: 'self_registration' },
    ...client,
  });
  const pair = await completeLogin(ctx, req, res, user, {
    method: 'email_verification',
    secondFactor: null,
  });
  return {
    verified: true,
    user: userSummary,
    partner: { id: outcome.partnerId, name: outcome.name, slug: outcome.slug, status: 'active' },
    mfaRequired: ctx.config.enable2fa,
    tokens: { accessToken: pair.accessToken, expiresInSeconds: pair.expiresInSeconds },
  };
}
