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
