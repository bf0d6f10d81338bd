import { describe, expect, it } from 'vitest';
import { parseHostAddress, unmapIpv4 } from './host-address';

describe('parseHostAddress', () => {
  it.each([
    ['203.0.113.7', 'ipv4', '203.0.113.7'],
    ['127.0.0.1', 'ipv4', '127.0.0.1'],
    ['::1', 'ipv6', '::1'],
    ['2001:DB8::1', 'ipv6', '2001:db8::1'],
    ['::ffff:203.0.113.5', 'ipv6', '::ffff:203.0.113.5'],
    ['1:2:3:4:5:6:7:8', 'ipv6', '1:2:3:4:5:6:7:8'],
    ['gpu-box-1.Example.NET', 'name', 'gpu-box-1.example.net'],
    ['gpu-box-1.example.net.', 'name', 'gpu-box-1.example.net'],
    ['localhost', 'name', 'localhost'],
    ['gpu-7.demo.rentgpu.dev', 'name', 'gpu-7.demo.rentgpu.dev'],
  ])('%s is an address (%s)', (input, kind, value) => {
    expect(parseHostAddress(input)).toEqual({ kind, value });
  });

  it.each([
    'h.example;id;#',
    '-oProxyCommand=touch /tmp/x',
    '-p',
    'h.example id',
    'h.example\n',
    '$(id).example',
    '`id`',
    "h'x",
    'a_b.example',
    '-leading.example',
    'trailing-.example',
    'user@h.example',
    'h.example:22',
    '[::1]',
    'fe80::1%eth0',
    '127.1',
    '2130706433',
    '0x7f.1',
    '999.1.1.1',
    '01.2.3.4',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '',
    '.',
    'a..b',
    `${'a'.repeat(64)}.example`,
    `${'a.'.repeat(127)}ab`,
  ])('%j is refused', (input) => {
    expect(parseHostAddress(input)).toBeNull();
  });
});

describe('unmapIpv4', () => {
  it('turns a dual-stack socket address into IPv4 and lower-cases the rest', () => {
    expect(unmapIpv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(unmapIpv4('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(unmapIpv4('2001:DB8::1')).toBe('2001:db8::1');
    expect(unmapIpv4('203.0.113.9')).toBe('203.0.113.9');
  });
});
