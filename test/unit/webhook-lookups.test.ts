import { describe, expect, it } from 'vitest';
import { singleFlight, type ResolvedAddress } from '../../server/modules/webhooks/address';

// A burst of deliveries to one receiver shares the lookup in flight, and only that one: every attempt that starts
// after an answer arrived asks DNS again, so the address check never judges a stale answer.
describe('webhook lookups', () => {
  it('shares one lookup among concurrent attempts and keeps nothing after it settles', async () => {
    const asked: string[] = [];
    let answer = '93.184.216.34';
    const resolver = singleFlight(async (hostname) => {
      asked.push(hostname);
      await new Promise((resolve) => setTimeout(resolve, 10));
      return [{ address: answer, family: 4 } satisfies ResolvedAddress];
    });

    const burst = await Promise.all([
      resolver('hooks.example.com'),
      resolver('HOOKS.example.com'),
      resolver('other.example.com'),
    ]);
    expect(asked).toEqual(['hooks.example.com', 'other.example.com']);
    expect(burst.map((a) => a[0]?.address)).toEqual(['93.184.216.34', '93.184.216.34', '93.184.216.34']);

    answer = '10.0.0.7';
    const later = await resolver('hooks.example.com');
    expect(asked).toEqual(['hooks.example.com', 'other.example.com', 'hooks.example.com']);
    expect(later[0]?.address).toBe('10.0.0.7');
  });

  it('lets a failed lookup fail every attempt sharing it, then asks again', async () => {
    let calls = 0;
    const resolver = singleFlight(async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (calls === 1) throw new Error('ENOTFOUND');
      return [{ address: '93.184.216.34', family: 4 }];
    });
    const first = await Promise.allSettled([resolver('a.example.com'), resolver('a.example.com')]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(resolver('a.example.com')).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
    expect(calls).toBe(2);
  });
});
