import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cloudInitErrors, knownHostKeys } from './probe';

describe("cloud-init's result, as the probe prints it", () => {
  it('no errors: done', () => {
    expect(
      cloudInitErrors('{"v1": {"datasource": "DataSourceNoCloud [seed=/dev/vdb]", "errors": []}}'),
    ).toEqual([]);
  });

  it('a failed module: its error, named', () => {
    const out = JSON.stringify({
      v1: {
        datasource: 'DataSourceNoCloud',
        errors: [
          "('scripts_user', RuntimeError('Runparts: 1 failures (part-001) in 1 attempted commands'))",
        ],
      },
    });
    expect(cloudInitErrors(out)).toEqual([
      "('scripts_user', RuntimeError('Runparts: 1 failures (part-001) in 1 attempted commands'))",
    ]);
  });

  it('unreadable output is an error, never success', () => {
    expect(cloudInitErrors('')[0]).toMatch(/unreadable/);
    expect(cloudInitErrors('{"v1": {}}')).toEqual(['cloud-init result has no error list']);
  });
});

describe('knownHostKeys', () => {
  it('reads the keys OpenSSH pinned, without the host part', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'probe-'));
    try {
      const file = path.join(dir, 'known_hosts');
      await writeFile(
        file,
        '# comment\n[127.0.0.1]:22001 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqq\n\n',
      );
      expect(await knownHostKeys(file)).toEqual(['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqq']);
      expect(await knownHostKeys(path.join(dir, 'missing'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
