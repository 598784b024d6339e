import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage } from '../../renderer/src/lib/errors';

// A refusal says the wait once (issue 16): the console states it from Retry-After, so a 429 never reads
// "Try again later. Try again in 6 minutes."

describe('errorMessage for 429', () => {
  it('adds the wait from Retry-After to the server’s sentence', () => {
    const err = new ApiError(429, 'Too many failed password attempts', 'RATE_LIMITED', {
      retryAfterSeconds: 360,
    });
    expect(errorMessage(err)).toBe('Too many failed password attempts. Try again in 6 minutes.');
    expect(
      errorMessage(
        new ApiError(429, 'Too many SMS codes requested.', 'RATE_LIMITED', { retryAfterSeconds: 1 }),
      ),
    ).toBe('Too many SMS codes requested. Try again in 1 second.');
  });

  it('never says the wait twice, even when a server sentence carries its own', () => {
    const err = new ApiError(429, 'Too many attempts. Try again later.', 'RATE_LIMITED', {
      retryAfterSeconds: 360,
    });
    expect(errorMessage(err)).toBe('Too many attempts. Try again in 6 minutes.');
    expect(errorMessage(new ApiError(429, 'Too many attempts. Try again later.'))).toBe(
      'Too many attempts. Wait a moment before trying again.',
    );
  });
});
