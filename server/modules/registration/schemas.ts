import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../../contract';

export const emailField = z.email('Invalid email address').max(255, 'Email must be at most 255 characters');

/** Length only: strength (passwordProblem) is checked in the service, where the email is known. */
export const newPasswordField = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(256, 'Password must be at most 256 characters');

const personName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(255, 'Name must be at most 255 characters');

export const registerPartnerBody = z.object({
  companyName: z
    .string()
    .trim()
    .min(2, 'Company name must be at least 2 characters')
    .max(255, 'Company name must be at most 255 characters'),
  name: personName,
  email: emailField,
  password: newPasswordField,
  acceptTerms: z.literal(true, { error: 'You must accept the terms of service' }),
});
export type RegisterPartnerInput = z.infer<typeof registerPartnerBody>;

export const registerUserBody = z.object({
  name: personName,
  email: emailField,
  password: newPasswordField,
});
export type RegisterUserInput = z.infer<typeof registerUserBody>;

/** Any string: every token failure, malformed ones included, answers the same 400. */
/** Any body is accepted here: a missing or non-string token is just another invalid token (one identical 400). */
export const verifyEmailBody = z.object({ token: z.unknown().optional() });

/** What a registration token completes; read back from email_tokens.payload. */
export const registrationPayload = z.object({
  name: z.string().min(1).max(255),
  passwordHash: z.string().min(1),
  companyName: z.string().min(2).max(255).optional(),
});
