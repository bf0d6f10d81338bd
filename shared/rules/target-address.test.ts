import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparableAddress, describeTargetRefusal, targetRefusal } from './target-address';

describe('targetRefusal: where renters may be sent and the console may connect', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['localhost', 'loopback'],
    ['LOCALHOST.', 'loopback'],
    ['gpu.localhost', 'loopback'],
    ['ip6-localhost', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['metadata.google.internal', 'metadata'],
    ['Metadata.Google.Internal.', 'metadata'],
    ['metadata', 'metadata'],
    ['metadata.goog', 'metadata'],
    ['instance-data', 'metadata'],
    ['instance-data.ec2.internal', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['100::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['gpu-box', 'local-name'],
    ['printer.local', 'local-name'],
    ['db.corp.internal', 'local-name'],
    ['router.home.arpa', 'local-name'],
    ['nas.lan', 'local-name'],
    ['h.example;id;#', 'not-an-address'],
    ['-oProxyCommand=id', 'not-an-address'],
    ['127.1', 'not-an-address'],
    ['', 'not-an-address'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(targetRefusal(address)?.kind).toBe(kind);
  });

  it.each([
    '203.0.113.7',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2001:4860:4860::8888',
    '2606:4700:4700::1111',
    'gpu-9.example.com',
    'GPU-9.Example.com.',
    'gpu-7.demo.rentgpu.dev',
    'metadata.example.com',
    'localhost.example.com',
  ])('accepts the public %s', (address) => {
    expect(targetRefusal(address)).toBeNull();
  });

  describe('with the lab setting (ALLOW_PRIVATE_HOST_ADDRESSES)', () => {
    const lab = { allowPrivate: true };

    it.each([
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      'localhost',
      '10.0.0.1',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.1.1',
      'fe80::1',
      'fd00::1',
      '100.64.0.1',
      'gpu-box',
      'gpu.lan',
      '203.0.113.7',
    ])('lets %s through', (address) => {
      expect(targetRefusal(address, lab)).toBeNull();
    });

    it.each([
      ['169.254.169.254', 'metadata'],
      ['metadata.google.internal', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['h.example;id;#', 'not-an-address'],
    ])('still refuses %s (%s)', (address, kind) => {
      expect(targetRefusal(address, lab)?.kind).toBe(kind);
    });
  });

  describe("another host's address", () => {
    const otherHosts = ['198.51.100.60', 'Box-61.Example.NET', null, '2001:db8::1', '10.0.0.9'];

    it.each(['198.51.100.60', '::ffff:198.51.100.60', 'box-61.example.net.', '2001:DB8:0::1'])(
      'refuses %s, in any spelling',
      (address) => {
        expect(targetRefusal(address, { otherHosts })?.kind).toBe('another-host');
      },
    );

    it('refuses it with the lab setting too, and accepts an address no other host has', () => {
      expect(targetRefusal('10.0.0.9', { otherHosts, allowPrivate: true })?.kind).toBe(
        'another-host',
      );
      expect(targetRefusal('203.0.113.8', { otherHosts })).toBeNull();
    });
  });

  it('says what the address is', () => {
    const refusal = targetRefusal('169.254.169.254');
    expect(refusal && describeTargetRefusal('169.254.169.254', refusal)).toBe(
      "169.254.169.254 is a cloud metadata service's address",
    );
  });
});

describe('comparableAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:CB00:7107', '203.0.113.7'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['1:0:3:4:5:6:7:8', '1:0:3:4:5:6:7:8'],
    ['::', '::'],
    ['Box-1.Example.NET.', 'box-1.example.net'],
  ])('%s is %s', (input, expected) => {
    expect(comparableAddress(input)).toBe(expected);
  });

  it('writes IPv6 as the URL parser does (RFC 5952), for any address', () => {
    fc.assert(
      fc.property(
        fc.array(
          // Zeros often: the runs `::` stands for.
          fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })),
          { minLength: 8, maxLength: 8 },
        ),
        (words) => {
          const full = words.map((w) => w.toString(16)).join(':');
          const url = new URL(`http://[${full}]/`).hostname.slice(1, -1);
          // The URL parser keeps an IPv4-mapped address in IPv6; here it is its IPv4.
          fc.pre(!url.startsWith('::ffff:'));
          expect(comparableAddress(full)).toBe(url);
        },
      ),
    );
  });

  it('is null for what is no address', () => {
    expect(comparableAddress('h.example;id')).toBeNull();
    expect(comparableAddress(null)).toBeNull();
  });
});
