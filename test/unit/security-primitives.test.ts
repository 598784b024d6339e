import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../server/crypto';
import { passwordProblem } from '../../server/modules/auth/passwords';
import { hashRecoveryCode, newRecoveryCodes, normalizeRecoveryCode } from '../../server/modules/mfa/totp';

describe('SecretBox', () => {
  it('round-trips, randomises and refuses tampering or another key', () => {
    const box = new SecretBox('a'.repeat(48));
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox('b'.repeat(48)).open(sealed)).toThrow();
  });
});

describe('password policy', () => {
  it('needs length and some variety, and refuses the obvious', () => {
    // One minimum everywhere (the contract's PASSWORD_MIN_LENGTH): 11 characters are refused, 12 may pass.
    expect(passwordProblem('Correct-H-9')).toBe('Password must be at least 12 characters');
    expect(passwordProblem('administrator')).toBe('Password is too weak');
    expect(passwordProblem('aaaaaaaaaaaa')).toBe('Password is too weak');
    expect(passwordProblem('grace.hopper-2026', { email: 'grace.hopper@navy.mil' })).toBe(
      'Password is too weak',
    );
    expect(passwordProblem('Correct-Horse-9')).toBeNull();
    expect(passwordProblem('Horse-Nine-9')).toBeNull();
  });
});

describe('recovery codes', () => {
  it('are ten distinct readable codes whose hash ignores case and dashes', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{2}$/);
    expect(normalizeRecoveryCode(' ab12-cd34-ef ')).toBe('AB12CD34EF');
    expect(hashRecoveryCode(codes[0]!.toLowerCase().replaceAll('-', ' '))).toBe(hashRecoveryCode(codes[0]!));
  });
});
