import { randomBytes } from 'node:crypto';
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 5199);
export const E2E_SERVER_LOG = process.env.E2E_SERVER_LOG ?? 'test-results/e2e-server.log';
/** A second server without PayPal configured, running the built-in PayPal sandbox. */
const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? port + 100);
export const E2E_SANDBOX_SERVER_LOG =
  process.env.E2E_SANDBOX_SERVER_LOG ?? 'test-results/e2e-server-sandbox.log';
// Specs that buy credits through the built-in sandbox (balance-guard: Add Credits and back).
const SANDBOX_SPECS = /(paypal-sandbox|balance-guard)\.spec\.ts$/;
/**
 * Lets e2e/fixtures.ts sign addresses in without an e-mailed code (POST /api/test/session).
 * Made once by the runner; its workers inherit it through the environment.
 */
process.env.TEST_SESSION_SECRET ??= randomBytes(24).toString('hex');
export const TEST_SESSION_SECRET = process.env.TEST_SESSION_SECRET;

/**
 * How Playwright stops a test server: SIGTERM to its process group, so the server shuts down
 * and scripts/e2e-server.mjs removes its database copy (the default SIGKILL left 44 MB in the
 * temporary folder per server and run); after 10 s without an exit, SIGKILL.
 */
const STOP_SERVER = { signal: 'SIGTERM', timeout: 10_000 } as const;

/** Browser tests drive Debian's Chromium against the built app on a fresh embedded database. */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  // Three on this 2-core machine: with two, the machine was 1.65 of 2 cores busy (each test
  // waits on the server and the browser in turn); alone, the 147 tests took 4.9 min with three
  // against 5.3 min with two (2026-11-27).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  // A failed test runs once more, recording its trace (trace.zip: each action's DOM snapshot,
  // the network, the console) to show why. The retry does not hide it: a test that fails and
  // then passes is flaky, and a flaky test fails the run. Recording a trace for every test
  // cost a quarter of the browser tests' CPU (content-pages.spec.ts: 187 → 140 CPU seconds).
  retries: 1,
  failOnFlakyTests: true,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [['list']] : [['list']],
  // A test's whole budget. The longest plain flow (rent-and-stop: sign in, search, rent, the
  // dashboard, copy, stop; about twenty waits) ran past 30 s in both tries of one CI run on a
  // day this machine ran the suite 2.5 times slower (the same flow passed in the two CI runs
  // before it). 60 s; a step that never arrives still fails on its own line at the 15 s below.
  timeout: 60_000,
  // How long an expectation waits for the page to get there. The longest page (the API
  // Reference, 27 operations) takes 1.8-2.2 s to its heading on this 2-core machine when quiet,
  // and failed to show within 7 s while two workers loaded the machine.
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'on-first-retry',
    // A click or key press that cannot happen fails on its own line, not at the test's timeout.
    actionTimeout: 15_000,
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: 'app', testIgnore: SANDBOX_SPECS },
    {
      name: 'paypal-sandbox',
      testMatch: SANDBOX_SPECS,
      use: { baseURL: `http://localhost:${sandboxPort}` },
    },
  ],
  // Started one after the other: the first builds the app when stale, the second reuses it.
  webServer: [
    {
      command: `node scripts/e2e-server.mjs`,
      url: `http://localhost:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      gracefulShutdown: STOP_SERVER,
      env: { PORT: String(port), E2E_SERVER_LOG, TEST_SESSION_SECRET },
    },
    {
      command: `node scripts/e2e-server.mjs`,
      url: `http://localhost:${sandboxPort}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      gracefulShutdown: STOP_SERVER,
      env: {
        PORT: String(sandboxPort),
        E2E_SERVER_LOG: E2E_SANDBOX_SERVER_LOG,
        E2E_PAYPAL: 'local-sandbox',
        TEST_SESSION_SECRET,
      },
    },
  ],
});
