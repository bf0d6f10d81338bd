import type { Command } from 'commander';
import type { PublicAccount } from '../../shared/contracts/public-api-account';
import { call } from '../client';
import { removeConfig, resolveUrl, writeConfig } from '../config';
import { fields } from '../output';
import { type Ctx, UsageError } from './context';

/** `login`, `logout` and `whoami`: the stored key and the account it belongs to. */
export function registerLogin(root: Command, ctx: Ctx): void {
  const { io } = ctx;
  root
    .command('login')
    .description(
      'store an API key (asked for, read from piped input, or --api-key) after checking it',
    )
    .action(async () => {
      const key = (ctx.globals().apiKey ?? (await io.prompt('API key: '))).trim();
      if (!key) throw new UsageError('No API key given. Create one in Settings → API Keys.');
      const account = await call<PublicAccount>(ctx.client(key), {
        method: 'GET',
        path: '/account',
      });
      if (!account) return;
      const apiUrl = ctx.globals().apiUrl;
      const file = writeConfig(io.env.configFile, {
        apiKey: key,
        ...(apiUrl ? { apiUrl: resolveUrl(apiUrl, io.env) } : {}),
      });
      ctx.show(
        { loggedIn: true, email: account.email, configFile: file },
        () => `Logged in as ${account.email}. Key stored in ${file}.`,
      );
    });

  root
    .command('logout')
    .description('forget the stored API key')
    .action(() => {
      const file = io.env.configFile;
      const removed = removeConfig(file);
      ctx.show({ loggedOut: removed, configFile: file }, () =>
        removed ? `Logged out: ${file} removed.` : 'Not logged in: no stored key.',
      );
    });

  root
    .command('whoami')
    .description('the account and key in use')
    .action(async () => {
      ctx.show(await ctx.api<PublicAccount>({ method: 'GET', path: '/account' }), (a) =>
        fields([
          ['Email', a.email],
          ['Name', [a.firstName, a.lastName].filter(Boolean).join(' ') || null],
          ['Balance', `$${a.balance} ${a.currency}`],
          ['Key', `${a.apiKey.permissions.join(', ')}; ${a.apiKey.rateTier} tier`],
          ['Requests/hour', a.apiKey.requestsPerHour],
        ]),
      );
    });
}
