// The API tests of everything that moves money or races: the ledger, instances and billing,
// payments, hosts, deploys, account closing, the public API and idempotency keys. CI runs them
// on PostgreSQL (npm test with MONEY_DATABASE_URL; `npm run test:money` with TEST_DATABASE_URL).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MONEY_TESTS = [
  'server/modules/instances',
  'server/modules/ledger',
  'server/modules/payments',
  'server/modules/hosts',
  'server/modules/deploy',
  'server/modules/account',
  'server/modules/public-api/public-api.test.ts',
  'server/modules/public-api/public-api-billing.test.ts',
  // The spend caps' racing trials (issue 39): many launches at once under a cap.
  'server/modules/spend-caps',
  // The event log (issue 40): written with every change, the wallet's events equal the ledger.
  'server/modules/events',
  'server/lib/idempotency',
  'server/db',
  'server/cross-process.test.ts',
  // Not money, but PostgreSQL's own plans for the worker's idle jobs and the marketplace's
  // filters: run where that is.
  'server/worker/idle-plans.test.ts',
  'server/modules/listings/plans.test.ts',
  // Webhook deliveries claimed by two processes at once: never one sent twice (ADR 027).
  'server/modules/webhooks/webhooks-claim.test.ts',
];

/** Globs that leave MONEY_TESTS out of a vitest run (`--exclude` each). */
export const MONEY_EXCLUDES = MONEY_TESTS.map((p) => (p.endsWith('.ts') ? p : `${p}/**`));

// `npm run test:money [vitest options]`: the money tests, wherever TEST_DATABASE_URL says.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = spawnSync(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--project',
      'api',
      ...MONEY_TESTS,
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
}
