import { describe, expect, it } from 'vitest';
import { createVmBody } from '../../../shared/contracts/kvm';
import { checkImage } from './kind-contract';

describe('the create form’s image check', () => {
  it('sends nothing for an empty field: the template’s image', async () => {
    expect(await checkImage('  ')).toEqual({ image: undefined, error: null });
  });

  it('sends a reference trimmed, as the server reads it', async () => {
    const raw = ' pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime ';
    expect(await checkImage(raw)).toEqual({
      image: 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
      error: null,
    });
    expect(createVmBody.parse({ kind: 'container', image: raw }).image).toBe(
      'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
    );
  });

  it('refuses what the server refuses, in the server’s words', async () => {
    for (const raw of ['PyTorch/PyTorch', 'ubuntu 22.04', 'ubuntu:', 'a'.repeat(256)]) {
      const server = createVmBody.safeParse({ kind: 'container', image: raw });
      expect(server.success, raw).toBe(false);
      expect(await checkImage(raw)).toEqual({
        image: undefined,
        error: server.error?.issues[0]?.message,
      });
    }
    expect((await checkImage('ubuntu 22.04')).error).toBe(
      'image must be an OCI image reference such as pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime',
    );
  });
});
