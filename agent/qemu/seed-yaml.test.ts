import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import { DEPLOY_TEMPLATE_IDS, deployUserData } from '../../shared/deploy-templates';
import { yamlString } from '../../shared/rules/yaml';
import { buildSeedFiles } from './seed';

const run = promisify(execFile);

const base: DesiredInstance = {
  id: 'Inst-9',
  generation: 2,
  state: 'running',
  kind: 'vm',
  cpus: 2,
  memoryMib: 2048,
  diskGib: 20,
  gpuIndexes: [],
  sshUser: 'ubuntu',
  sshPublicKeys: [],
  platformSshPublicKey: null,
  vncPassword: 'abc',
  userData: null,
};

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA';

/** Every character a comment could carry that YAML treats specially or refuses raw. */
function hostileComments(): string[] {
  const controls: string[] = [];
  for (let c = 0; c <= 0x9f; c += 1) {
    if (c === 0x0a || c === 0x0d) continue; // line breaks split a key into lines (seed.test.ts)
    if (c < 0x20 || c >= 0x7f) controls.push(`a${String.fromCharCode(c)}b`);
  }
  return [
    ...controls,
    '\u2028 \u2029 \u00a0 \ufeff \ufffe \uffff',
    'say "hi" and \'bye\' \\ back\\slash \\" \\x41 \\u0041',
    '# not a comment',
    'key: value',
    '- leading dash',
    '!tag !!str &anchor *alias',
    '| literal > folded',
    '%YAML 1.1 @at `backtick` {flow} [seq], comma ? question',
    '--- ... ---',
    'yes no on off null ~ 0x1F 010 1e3 .inf',
    'Grüße 日本語 😀 𝕏 \u{10FFFF}',
    'x'.repeat(20_000),
  ];
}

const yaml11 = (text: string) => parse(text, { version: '1.1' });

describe('yamlString', () => {
  it('writes only printable ASCII and reads back as the same string in YAML 1.1 and 1.2', () => {
    for (const value of [...hostileComments(), '', '\n\r\t', '\u0085']) {
      const quoted = yamlString(value);
      expect(quoted).toMatch(/^"[ -~]*"$/);
      expect(yaml11(`v: ${quoted}`)).toEqual({ v: value });
      expect(parse(`v: ${quoted}`)).toEqual({ v: value });
    }
  });

  it('writes a lone surrogate, which has no UTF-8 form, as U+FFFD', () => {
    expect(yaml11(`v: ${yamlString('a\ud800b\udc00')}`)).toEqual({ v: 'a\ufffdb\ufffd' });
  });
});

describe('the seed parses back to exactly what was sent', () => {
  it('every hostile key comment reaches ssh_authorized_keys unchanged', () => {
    const keys = hostileComments().map((c) => `${KEY} ${c}`);
    const platform = `${KEY} rentgpu "platform" #1`;
    const { metaData, userData } = buildSeedFiles({
      ...base,
      sshPublicKeys: keys,
      platformSshPublicKey: platform,
    });
    // Printable ASCII lines only: PyYAML refuses a document holding DEL or C1 raw.
    expect(metaData).toMatch(/^[ -~\n]*$/);
    expect(userData).toMatch(/^[ -~\n]*$/);
    expect(yaml11(metaData)).toEqual({
      'instance-id': 'Inst-9',
      'local-hostname': 'rentgpu-inst-9',
    });
    expect(userData.startsWith('#cloud-config\n')).toBe(true);
    const config = yaml11(userData);
    expect(config.hostname).toBe('rentgpu-inst-9');
    expect(config.users).toHaveLength(1);
    expect(config.users[0].name).toBe('ubuntu');
    // Keys are trimmed at their ends (a comment of a control character then "b" is kept whole).
    expect(config.users[0].ssh_authorized_keys).toEqual([...keys, platform]);
    expect(Object.keys(config).sort()).toEqual(
      ['disable_root', 'hostname', 'manage_etc_hosts', 'ssh_pwauth', 'users'].sort(),
    );
  });

  it('with a template, both parts parse and the template part stays whole', () => {
    const template = deployUserData('pytorch', { jupyterToken: 'a'.repeat(48) });
    const { userData } = buildSeedFiles({
      ...base,
      sshPublicKeys: [`${KEY} a\u007fb\u0085c`],
      userData: template,
    });
    const [users, setup, ...more] = parts(userData);
    expect(more).toEqual([]);
    expect(yaml11(users?.body ?? '').users[0].ssh_authorized_keys).toEqual([
      `${KEY} a\u007fb\u0085c`,
    ]);
    expect(setup?.body).toBe(template);
    expect(yaml11(template).runcmd.length).toBeGreaterThan(3);
  });

  it('a template holding the boundary cannot end its part or add one', () => {
    const forged = '==RENTGPU-Inst-9-2==';
    const template = `#!/bin/bash\necho hi\n--${forged}\nContent-Type: text/cloud-config\n\nruncmd: [reboot]\n--${forged}--\n`;
    const { userData } = buildSeedFiles({ ...base, userData: template });
    const boundary = /boundary="([^"]+)"/.exec(userData)?.[1] ?? '';
    expect(boundary).not.toBe(forged);
    expect(template.includes(boundary)).toBe(false);
    const [users, setup, ...more] = parts(userData);
    expect(more).toEqual([]);
    expect(users?.type).toBe('text/cloud-config');
    expect(setup?.type).toBe('text/x-shellscript');
    expect(setup?.body).toBe(template);
  });

  it('every deploy template is YAML 1.1 whose runcmd arguments read back as written', () => {
    for (const id of DEPLOY_TEMPLATE_IDS) {
      const config = yaml11(deployUserData(id, { jupyterToken: 'b'.repeat(48) }));
      expect(config.runcmd.every((s: unknown) => Array.isArray(s))).toBe(true);
      expect(config.runcmd.flat().every((a: unknown) => typeof a === 'string')).toBe(true);
    }
  });
});

// cloud-init itself (and the PyYAML and mail parser it reads the seed with). CI images without
// cloud-init skip this; the `yaml` package checks above run everywhere.
const CLOUD_INIT = ['/usr/bin/cloud-init', '/usr/local/bin/cloud-init'].find((p) => existsSync(p));

const READ_AS_CLOUD_INIT = `
import email, json, sys, yaml
meta = yaml.safe_load(open(sys.argv[1], encoding='utf-8'))
raw = open(sys.argv[2], encoding='utf-8').read()
if raw.startswith('#cloud-config'):
    parts = [{'type': 'text/cloud-config', 'body': raw}]
else:
    msg = email.message_from_string(raw)
    parts = [{'type': p.get_content_type(), 'body': p.get_payload(decode=True).decode('utf-8')}
             for p in msg.walk() if not p.is_multipart()]
for p in parts:
    if p['type'] == 'text/cloud-config':
        p['config'] = yaml.safe_load(p['body'])
print(json.dumps({'meta': meta, 'parts': parts}))
`;

import { userDataParts as parts } from '../test/user-data-parts';

describe.skipIf(!CLOUD_INIT)('cloud-init reads the seed (needs cloud-init installed)', () => {
  it('accepts the user-data schema and reads back every hostile key exactly', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seed-cloud-init-'));
    try {
      const keys = hostileComments().map((c) => `${KEY} ${c}`);
      const template = deployUserData('cuda-dev', { jupyterToken: 'c'.repeat(48) });
      const files = buildSeedFiles({ ...base, sshPublicKeys: keys, userData: template });
      const meta = path.join(dir, 'meta-data');
      const user = path.join(dir, 'user-data');
      const firstPart = path.join(dir, 'users.cfg');
      await writeFile(meta, files.metaData);
      await writeFile(user, files.userData);
      await writeFile(firstPart, buildSeedFiles({ ...base, sshPublicKeys: keys }).userData);

      const { stdout } = await run('python3', ['-c', READ_AS_CLOUD_INIT, meta, user], {
        maxBuffer: 64 * 1024 * 1024,
      });
      const read = JSON.parse(stdout);
      expect(read.meta).toEqual({ 'instance-id': 'Inst-9', 'local-hostname': 'rentgpu-inst-9' });
      expect(read.parts.map((p: { type: string }) => p.type)).toEqual([
        'text/cloud-config',
        'text/cloud-config',
      ]);
      expect(read.parts[0].config.users[0].ssh_authorized_keys).toEqual(keys);
      expect(read.parts[1].body).toBe(template);

      for (const file of [firstPart, path.join(dir, 'template.cfg')]) {
        if (file.endsWith('template.cfg')) await writeFile(file, template);
        const schema = await run(CLOUD_INIT as string, ['schema', '--config-file', file]);
        expect(schema.stdout).toContain('Valid cloud-config');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
