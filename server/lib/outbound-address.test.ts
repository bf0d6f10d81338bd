import os from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  hostTargetRefusal,
  OutboundRefused,
  outboundAddress,
  type Resolve,
} from './outbound-address';

/** A resolver that answers `addresses` for every name. */
const resolveTo =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses.map((address) => ({ address }));

const nowhere: Resolve = async () => {
  throw new Error('ENOTFOUND');
};

describe('addressRefusal: the shared rule, and this machine', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '::ffff:127.0.0.1',
    '64:ff9b::a00:1',
    'metadata.google.internal',
  ])('%s is refused', (address) => {
    expect(addressRefusal(address, {})).not.toBeNull();
  });

  it('accepts a public address', () => {
    expect(addressRefusal('203.0.113.7', {})).toBeNull();
  });

  it("refuses this machine's own addresses, except in a lab", () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .map((a) => a?.address)
      .filter((a): a is string => typeof a === 'string');
    for (const address of own) expect(addressRefusal(address, {})).not.toBeNull();
    for (const address of own.filter((a) => !a.startsWith('fe80'))) {
      expect(addressRefusal(address, { allowPrivate: true })).toBeNull();
    }
  });
});

describe('outboundAddress', () => {
  it('answers the checked address of a public name, so the connection goes where was checked', async () => {
    await expect(
      outboundAddress('gpu.example.net', { resolve: resolveTo('203.0.113.7') }),
    ).resolves.toBe('203.0.113.7');
  });

  it('refuses a name that points inside, even when one of its answers is public', async () => {
    await expect(
      outboundAddress('rebind.example', { resolve: resolveTo('203.0.113.7', '127.0.0.1') }),
    ).rejects.toThrow(OutboundRefused);
    await expect(outboundAddress('127.0.0.1', {})).rejects.toThrow(/loopback/);
    await expect(
      outboundAddress('metadata.google.internal', { resolve: resolveTo('203.0.113.7') }),
    ).rejects.toThrow(/metadata/);
  });

  it('lets private addresses through only in a lab, and never a metadata service', async () => {
    await expect(outboundAddress('127.0.0.1', { allowPrivate: true })).resolves.toBe('127.0.0.1');
    await expect(
      outboundAddress('box.lan', { allowPrivate: true, resolve: resolveTo('192.168.1.9') }),
    ).resolves.toBe('192.168.1.9');
    await expect(outboundAddress('169.254.169.254', { allowPrivate: true })).rejects.toThrow(
      /metadata/,
    );
  });

  it('refuses a name that does not resolve', async () => {
    await expect(outboundAddress('nowhere.invalid', { resolve: nowhere })).rejects.toThrow(
      /did not resolve/,
    );
  });
});

describe('hostTargetRefusal: a name where renters are sent', () => {
  it('is refused for what its text is, or for any address it resolves to', async () => {
    expect(await hostTargetRefusal('localhost', { resolve: resolveTo('203.0.113.7') })).toMatch(
      /^localhost is a loopback address/,
    );
    expect(
      await hostTargetRefusal('loop.example.com', { resolve: resolveTo('203.0.113.7', '::1') }),
    ).toBe('loop.example.com resolves to ::1, a loopback address (the machine itself)');
    expect(
      await hostTargetRefusal('taken.example.com', {
        resolve: resolveTo('198.51.100.60'),
        otherHosts: ['198.51.100.60'],
      }),
    ).toBe("taken.example.com resolves to 198.51.100.60, another provider's host's address");
  });

  it('takes a public one, and a name that does not resolve yet', async () => {
    expect(
      await hostTargetRefusal('gpu.example.com', { resolve: resolveTo('203.0.113.7') }),
    ).toBeNull();
    expect(await hostTargetRefusal('soon.example.com', { resolve: nowhere })).toBeNull();
  });
});
