import { defineConfig } from 'vitest/config';

/** The system tests that start real server processes but boot no VM (project `processes`). */
const SERVER_PROCESS_TESTS = [
  'system/two-processes.e2e.test.ts',
  'system/webhooks-crash.e2e.test.ts',
];

/**
 * Unit tests (pure rules), API tests (the Fastify app through inject, a fresh database per
 * file) and the agent's end-to-end tests (a real VM).
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          // One module cache per worker, not per file: importing the server anew for each file
          // was most of this project's and the API's time (import 244 s of CPU in one run).
          // Each file still makes its own app and database.
          isolate: false,
          include: [
            'shared/**/*.test.ts',
            'web/**/*.test.ts',
            'scripts/**/*.test.ts',
            'agent/**/*.test.ts',
            'cli/**/*.test.ts',
          ],
          exclude: ['**/*.e2e.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        // The provider agent against a test control plane, booting a real QEMU guest built by
        // scripts/test-guest/build.sh (software emulation when there is no hardware KVM).
        test: {
          name: 'agent-e2e',
          include: ['agent/**/*.e2e.test.ts'],
          exclude: [
            'agent/test/real-guest.e2e.test.ts',
            'agent/container/**',
            '**/node_modules/**',
          ],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
      {
        // The container driver on real Podman with runc (a store of each run's own under /tmp,
        // fake GPUs through CDI): no VM, so npm test runs it in the first lane, after the money
        // tests.
        test: {
          name: 'containers',
          include: ['agent/container/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
      {
        // The real agent on a real distribution: the Debian cloud image built by
        // scripts/test-image/build.sh, fetched over HTTP, booted under UEFI, set up by real
        // cloud-init (two guests at once). `npm test` runs it on its own, after the others.
        test: {
          name: 'real-guest',
          include: ['agent/test/real-guest.e2e.test.ts'],
          environment: 'node',
          testTimeout: 2_400_000,
          hookTimeout: 1_300_000,
        },
      },
      {
        // The whole supply side: the server listening on a port, the real agent process and
        // a real QEMU guest, the OpenSSH client (system/); and two real server processes on
        // one PostgreSQL (system/two-processes.e2e.test.ts). One file at a time (npm test's
        // VMs phase), so their processes do not compete with the API tests for the cores.
        test: {
          name: 'system',
          include: ['system/**/*.e2e.test.ts'],
          exclude: [...SERVER_PROCESS_TESTS, '**/node_modules/**'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
      {
        // Real server processes without a VM: two on one PostgreSQL, and one killed while it
        // delivers webhooks. npm test runs them at the head of the VM lane, before the VMs.
        test: {
          name: 'processes',
          include: SERVER_PROCESS_TESTS,
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'api',
          isolate: false, // as in unit: each file builds its own app on its own database
          include: ['server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
