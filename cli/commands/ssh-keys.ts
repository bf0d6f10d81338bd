import type { Command } from 'commander';
import type { SshKeyView } from '../../shared/contracts/ssh-keys';
import { table } from '../output';
import type { Ctx } from './context';

/** `ssh-keys list|add|remove`: the public keys new instances get. */
export function registerSshKeys(root: Command, ctx: Ctx): void {
  const { api, show } = ctx;
  const sshKeys = root
    .command('ssh-keys')
    .description('SSH public keys installed on new instances');
  sshKeys.command('list').action(async () =>
    show(await api<{ sshKeys: SshKeyView[] }>({ method: 'GET', path: '/ssh-keys' }), (a) =>
      a.sshKeys.length === 0
        ? 'No SSH keys.'
        : table(a.sshKeys, [
            ['id', (k) => k.id],
            ['name', (k) => k.name],
            ['type', (k) => k.type],
            ['fingerprint', (k) => k.fingerprint],
          ]),
    ),
  );
  sshKeys
    .command('add')
    .argument('<name>', 'a name for the key')
    .argument('<public-key>', 'the public key line, e.g. "ssh-ed25519 AAAA… me@laptop"')
    .action(async (name: string, publicKey: string) =>
      show(
        await api<{ sshKey: SshKeyView }>({
          method: 'POST',
          path: '/ssh-keys',
          body: { name, publicKey },
        }),
        (a) => `Added ${a.sshKey.name} (${a.sshKey.fingerprint}), id ${a.sshKey.id}.`,
      ),
    );
  sshKeys
    .command('remove')
    .argument('<id>', 'the key id (from ssh-keys list)')
    .action(async (id: string) => {
      await api({ method: 'DELETE', path: `/ssh-keys/${encodeURIComponent(id)}` });
      if (!ctx.globals().explain) show({ removed: id }, () => `Removed SSH key ${id}.`);
    });
}
