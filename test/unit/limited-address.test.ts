import { describe, expect, it } from 'vitest';
import { limitedAddress } from '../../src/limits/limited-address.js';

describe('limitedAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:db8:1:2:3:4:192.0.2.1', '2001:db8:1:2::/64'],
    // an IPv4 host inside IPv6, however it is spelt, is that IPv4 host
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['::FFFF:203.0.113.7%eth0', '203.0.113.7'],
    ['64:ff9b::192.0.2.1', '192.0.2.1'],
    ['64:ff9b::c000:201', '192.0.2.1'],
    // ports, as proxies may write them in X-Forwarded-For
    ['203.0.113.7:5678', '203.0.113.7'],
    ['[2001:db8:1:2::1]:443', '2001:db8:1:2::/64'],
    ['[::ffff:203.0.113.7]', '203.0.113.7'],
    ['not an address', 'not an address'],
    ['1.2.3', '1.2.3'],
  ])('%s -> %s', (ip, expected) => {
    expect(limitedAddress(ip)).toBe(expected);
  });

  it('one /64 is one address, the next /64 another', () => {
    expect(limitedAddress('2001:db8:1:2::1')).toBe(limitedAddress('2001:db8:1:2:abcd::9'));
    expect(limitedAddress('2001:db8:1:2::1')).not.toBe(limitedAddress('2001:db8:1:3::1'));
  });
});
