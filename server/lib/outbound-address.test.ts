import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { internalReason, OutboundRefused, outboundAddress } from './outbound-address';

describe('internalReason', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
  ])('%s is internal', (address) => {
    expect(internalReason(address)).not.toBeNull();
  });

  it.each(['203.0.113.7', '8.8.8.8', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(internalReason(address)).toBeNull();
    },
  );

  it("refuses this machine's own addresses", () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .map((a) => a?.address)
      .filter((a): a is string => typeof a === 'string');
    for (const address of own) expect(internalReason(address)).not.toBeNull();
  });
});

describe('outboundAddress', () => {
  const resolveTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address }));

  it('answers the checked address of a public name, so the connection goes where was checked', async () => {
    await expect(
      outboundAddress('gpu.example.net', {
        allowInternal: false,
        resolve: resolveTo('203.0.113.7'),
      }),
    ).resolves.toBe('203.0.113.7');
  });

  it('refuses a name that points inside, even when one of its answers is public', async () => {
    await expect(
      outboundAddress('rebind.example', {
        allowInternal: false,
        resolve: resolveTo('203.0.113.7', '127.0.0.1'),
      }),
    ).rejects.toThrow(OutboundRefused);
    await expect(outboundAddress('127.0.0.1', { allowInternal: false })).rejects.toThrow(
      /internal address/,
    );
  });

  it('lets internal addresses through only when the operator allows them', async () => {
    await expect(outboundAddress('127.0.0.1', { allowInternal: true })).resolves.toBe('127.0.0.1');
  });

  it('refuses a name that does not resolve', async () => {
    await expect(
      outboundAddress('nowhere.invalid', {
        allowInternal: false,
        resolve: async () => {
          throw new Error('ENOTFOUND');
        },
      }),
    ).rejects.toThrow(/did not resolve/);
  });
});
