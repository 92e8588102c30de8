import { addressKey } from '../../src/shared/client-address';

describe('addressKey', () => {
  test('an IPv4 address is its own key', () => {
    expect(addressKey('127.0.0.50')).toBe('127.0.0.50');
    expect(addressKey('127.0.0.51')).not.toBe(addressKey('127.0.0.50'));
  });

  test('an IPv4-mapped IPv6 address counts as the IPv4 address', () => {
    expect(addressKey('::ffff:127.0.0.50')).toBe('127.0.0.50');
  });

  test('every address of one IPv6 /64 shares one key; the next /64 has another', () => {
    const key = addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::1')).toBe(key);
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key);
  });

  test('a /56 prefix joins the /64s inside it', () => {
    expect(addressKey('2001:db8:1:2ff::1', 56)).toBe('2001:db8:1:200::/56');
    expect(addressKey('2001:db8:1:200::1', 56)).toBe(addressKey('2001:db8:1:2ff::1', 56));
    expect(addressKey('2001:db8:1:300::1', 56)).not.toBe(addressKey('2001:db8:1:2ff::1', 56));
  });

  test('something that is not an address is its own key', () => {
    expect(addressKey('unknown')).toBe('unknown');
  });
});
