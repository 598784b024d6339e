import { describe, expect, it } from 'vitest';
import { addressBlock, IpRanges, normalizeIp, parseRange } from '../../server/http/ip';

describe('normalizeIp', () => {
  it('turns IPv4-mapped IPv6 into plain IPv4 and lowercases IPv6', () => {
    expect(normalizeIp('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normalizeIp('::FFFF:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeIp('2001:DB8::1')).toBe('2001:db8::1');
    expect(normalizeIp('[2001:db8::1]')).toBe('2001:db8::1');
    expect(normalizeIp(' 192.0.2.7 ')).toBe('192.0.2.7');
  });

  it('returns null for anything that is not an address', () => {
    for (const bad of ['', 'localhost', '10.0.0.300', '10.0.0', '1.2.3.4.5', '2001:db8:::1', '10.0.0.1/8']) {
      expect(normalizeIp(bad), bad).toBeNull();
    }
  });
});

describe('parseRange', () => {
  it('reads literal addresses as single-host ranges', () => {
    expect(parseRange('192.0.2.10')).toEqual({ address: '192.0.2.10', prefix: 32, family: 'ipv4' });
    expect(parseRange('2001:db8::1')).toEqual({ address: '2001:db8::1', prefix: 128, family: 'ipv6' });
    expect(parseRange('  10.0.0.1  ')).toEqual({ address: '10.0.0.1', prefix: 32, family: 'ipv4' });
  });

  it('reads CIDR ranges of both families, including the edges', () => {
    expect(parseRange('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseRange('0.0.0.0/0')).toEqual({ address: '0.0.0.0', prefix: 0, family: 'ipv4' });
    expect(parseRange('10.0.0.1/32')).toEqual({ address: '10.0.0.1', prefix: 32, family: 'ipv4' });
    expect(parseRange('2001:DB8::/32')).toEqual({ address: '2001:db8::', prefix: 32, family: 'ipv6' });
    expect(parseRange('::/0')).toEqual({ address: '::', prefix: 0, family: 'ipv6' });
    expect(parseRange('fe80::/128')).toEqual({ address: 'fe80::', prefix: 128, family: 'ipv6' });
  });

  it('reads IPv4-mapped IPv6 as the IPv4 range it denotes', () => {
    expect(parseRange('::ffff:10.0.0.0/104')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseRange('::ffff:192.0.2.5')).toEqual({ address: '192.0.2.5', prefix: 32, family: 'ipv4' });
    expect(parseRange('::ffff:192.0.2.5/128')).toEqual({ address: '192.0.2.5', prefix: 32, family: 'ipv4' });
    expect(parseRange('::ffff:0.0.0.0/96')).toEqual({ address: '0.0.0.0', prefix: 0, family: 'ipv4' });
  });

  it('refuses entries that are not addresses or ranges', () => {
    for (const bad of [
      '',
      ' ',
      'not-an-ip',
      '10.0.0.300',
      '10.0.0.0/33',
      '10.0.0.0/-1',
      '10.0.0.0/',
      '10.0.0.0/8/8',
      '10.0.0.0/a',
      '10.0.0.0/1000',
      '2001:db8::/129',
      '::ffff:10.0.0.0/95',
      '::ffff:10.0.0.0/8',
      '::ffff:10.0.0.0/129',
      '/8',
      'example.com/24',
    ]) {
      expect(parseRange(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('IpRanges', () => {
  const ranges = new IpRanges([
    '10.0.0.0/8',
    '192.0.2.10',
    '2001:db8::/32',
    '::ffff:172.16.0.0/108',
    'garbage',
    '10.0.0.300',
  ]);

  it('counts only the valid entries', () => {
    expect(ranges.size).toBe(4);
    expect(new IpRanges([]).size).toBe(0);
  });

  it('matches IPv4 addresses against ranges and literals', () => {
    expect(ranges.has('10.255.1.2')).toBe(true);
    expect(ranges.has('11.0.0.1')).toBe(false);
    expect(ranges.has('192.0.2.10')).toBe(true);
    expect(ranges.has('192.0.2.11')).toBe(false);
  });

  it('matches an IPv4-mapped client address against IPv4 ranges, and a mapped range against IPv4 clients', () => {
    expect(ranges.has('::ffff:10.1.1.1')).toBe(true);
    expect(ranges.has('::ffff:11.1.1.1')).toBe(false);
    expect(ranges.has('172.16.5.5')).toBe(true);
    expect(ranges.has('172.32.0.1')).toBe(false);
  });

  it('matches IPv6 addresses', () => {
    expect(ranges.has('2001:db8:1234::5')).toBe(true);
    expect(ranges.has('2001:DB8::1')).toBe(true);
    expect(ranges.has('2001:db9::1')).toBe(false);
  });

  it('treats a range written with host bits set as the enclosing network', () => {
    expect(new IpRanges(['10.1.2.3/8']).has('10.200.0.1')).toBe(true);
  });

  it('never matches null or a non-address', () => {
    expect(ranges.has(null)).toBe(false);
    expect(ranges.has('not-an-ip')).toBe(false);
    expect(new IpRanges(['0.0.0.0/0']).has('2001:db8::1')).toBe(false);
  });
});

describe('addressBlock', () => {
  it('counts an IPv4 address alone and an IPv6 address by its /64', () => {
    expect(addressBlock('192.0.2.7')).toBe('192.0.2.7');
    expect(addressBlock('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressBlock('2001:DB8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('::1')).toBe('0:0:0:0::/64');
    expect(addressBlock('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressBlock('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('puts missing and unreadable addresses in one shared block', () => {
    expect(addressBlock(null)).toBe('unknown');
    expect(addressBlock('not-an-address')).toBe('unknown');
  });
});
