import { addressBucket, networkBucket } from './address-bucket';

describe('addressBucket', () => {
  it('keeps an IPv4 address alone, also one mapped into IPv6', () => {
    expect(addressBucket('192.0.2.7')).toBe('address:192.0.2.7');
    expect(addressBucket('::ffff:192.0.2.7')).toBe('address:192.0.2.7');
    expect(addressBucket('192.0.2.8')).not.toBe(addressBucket('192.0.2.7'));
  });

  it('puts every address of one IPv6 /64 in one bucket, however it is written', () => {
    const buckets = new Set(
      ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2::192.0.2.1'].map(
        addressBucket,
      ),
    );
    expect([...buckets]).toEqual(['address:2001:db8:1:2::/64']);
  });

  it('keeps different /64 networks apart', () => {
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(addressBucket('2001:db8:1:2::1'));
    expect(addressBucket('2001:db8::1')).toBe('address:2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('address:0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('address:fe80:0:0:0::/64');
  });
});

describe('networkBucket', () => {
  it('puts every /64 of one IPv6 /48 in one bucket, and keeps /48 networks apart', () => {
    const buckets = new Set(['2001:db8:1:2::1', '2001:db8:1:ffff::1', '2001:0DB8:0001::9'].map(networkBucket));
    expect([...buckets]).toEqual(['network:2001:db8:1::/48']);
    expect(networkBucket('2001:db8:2::1')).toBe('network:2001:db8:2::/48');
  });

  it('has none for an IPv4 address, also one mapped into IPv6', () => {
    expect(networkBucket('192.0.2.7')).toBeNull();
    expect(networkBucket('::ffff:192.0.2.7')).toBeNull();
  });
});
