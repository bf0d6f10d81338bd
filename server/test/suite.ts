import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { checkInvariants } from '../modules/ledger/invariants';
import { createTestApp, type TestApp, type TestAppOptions } from './app';
import { world } from './world';

export type World = ReturnType<typeof world>;

/**
 * The demo host reports an instance ready after 20 s and nothing times out meanwhile: a test
 * moves the clock itself to see it ready.
 */
export const SLOW_DEMO_HOST_ENV = {
  DEMO_PROVISIONING_DELAY_MS: '20000',
  PROVISIONING_TIMEOUT_MS: '600000',
};

/**
 * Noon (UTC) of today, for a manual clock to start at: tests that run minutes of the clock
 * through daily and monthly counters (which start afresh at midnight) see no day turn over
 * mid-test, as one begun at the real time just before midnight did (CI, 27 November 23:59: a
 * key's cap of 3 minutes let 5 through).
 */
export const NOON_TODAY = new Date(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`);

/** One test app for a file's tests: made before them (`ready` receives it), closed after all of them. */
export function withTestApp(options: TestAppOptions, ready: (t: TestApp) => void): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(options);
    ready(app);
  });
  afterAll(async () => {
    await app?.close();
  });
}

/**
 * One test app for a file's tests: made before them (`ready` receives it and its world), the
 * ledger's invariants checked after each test, closed after all of them.
 */
export function setupTestApp(options: TestAppOptions, ready: (t: TestApp, w: World) => void): void {
  let app: TestApp | undefined;
  withTestApp(options, (made) => {
    app = made;
    ready(made, world(made));
  });
  afterEach(async () => {
    if (app) expect(await checkInvariants(app.database.db)).toEqual([]);
  });
}
