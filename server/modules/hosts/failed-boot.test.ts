import { describe, expect, it } from 'vitest';
import { heartbeatResponse, type InstanceStatus } from '../../../shared/contracts/agent-protocol';
import type { PublicInstance } from '../../../shared/contracts/public-api';
import { createHost, createListing, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { agentCalls, gpuInventory } from '../../test/hosts';
import { createApiKey, v1Request } from '../../test/public-api';
import { setupTestApp } from '../../test/suite';
import { ledgerService } from '../ledger/service';

/**
 * A create its host cannot run (the agent's boot fails at once, issue 25): the host's reason
 * reaches the renter in v1 (which the CLI's `instances show` prints) and /api/kvm (the VM card),
 * whether the agent's report or only its heartbeat carried it, and nothing is charged (the
 * ledger's invariants are checked after each test).
 */
let t: TestApp;
setupTestApp({ env: { PROVISIONING_TIMEOUT_MS: '600000' } }, (app) => {
  t = app;
});

const AGENT_ADDRESS = '203.0.113.11';
const REASON =
  'no hardware virtualisation (kvm_intel/kvm_amd not loaded) and software emulation is not allowed';
const MODELS = [
  ['A40', 'NVIDIA A40'],
  ['A6000', 'NVIDIA RTX A6000'],
] as const;
let models = 0;

async function hostWithListing() {
  const providerId = (await createProvider(t.database.db, {})).id;
  // A model of its own per host (GPU types are chosen cheapest first), its GPUs reported.
  const [model, name] = MODELS[models] ?? ['', ''];
  models += 1;
  const host = await createHost(t.database.db, {
    providerId,
    lastHeartbeatAt: t.clock.now(),
    gpus: { name, count: 2 },
  });
  const listing = await createListing(t.database.db, {
    providerId,
    model,
    hourlyRate: '1.00',
    hostId: host.id,
    totalCount: 2,
  });
  const calls = agentCalls(t, host.credential, AGENT_ADDRESS, gpuInventory(name));
  const heartbeat = async (statuses: InstanceStatus[] = []) => {
    const res = await calls.heartbeat(statuses);
    expect(res.statusCode).toBe(200);
    return heartbeatResponse.parse(res.json());
  };
  return { model, listing, heartbeat, report: calls.report };
}

async function renter() {
  const user = await t.signIn({ credits: '50.00' });
  const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
  return { ...user, key };
}

const wallet = (userId: string) => ledgerService.walletBalance(t.database.db, userId);

async function views(user: { cookie: string; key: string }, id: number) {
  const v1 = await v1Request(t, user.key, 'GET', `/instances/${id}`);
  expect(v1.statusCode).toBe(200);
  const instance = v1.json().instance as PublicInstance;
  const kvm = await t.request({ method: 'GET', url: '/api/kvm/instances', cookie: user.cookie });
  const vm = (kvm.json() as { vm_id: number; state: string; failure_reason: string | null }[]).find(
    (v) => v.vm_id === id,
  );
  return { instance, vm };
}

describe('a create its host cannot run', () => {
  it('shows the reason the agent reported in v1 and /api/kvm, and charges nothing', async () => {
    const { model, heartbeat, report } = await hostWithListing();
    const user = await renter();
    const before = await wallet(user.userId);
    const made = await t.request({
      method: 'POST',
      url: '/api/kvm/instances',
      cookie: user.cookie,
      payload: { gpu_type: model },
    });
    expect(made.statusCode).toBe(201);
    const id = made.json().vm_id as number;
    const desired = (await heartbeat()).instances.find((d) => d.id === String(id));
    expect(desired?.state).toBe('running');

    // Before any failure, no reason anywhere.
    const waiting = await views(user, id);
    expect(waiting.instance.failureReason).toBeNull();
    expect(waiting.vm?.failure_reason).toBeNull();

    const failed = await report(id, {
      generation: desired?.generation ?? 0,
      state: 'failed',
      error: REASON,
    });
    expect(failed.json()).toEqual({ accepted: true });
    const { instance, vm } = await views(user, id);
    expect(instance).toMatchObject({ status: 'failed', failureReason: REASON });
    expect(vm).toMatchObject({ state: 'failed', failure_reason: REASON });
    expect(await wallet(user.userId)).toBe(before);
    // The host is told to delete it, and it stays failed with its reason.
    const next = (await heartbeat()).instances.find((d) => d.id === String(id));
    expect(next?.state).toBe('terminated');
    await report(id, { generation: next?.generation ?? 0, state: 'terminated' });
    expect((await views(user, id)).instance.failureReason).toBe(REASON);
    expect(await wallet(user.userId)).toBe(before);
  });

  it('takes the reason from a heartbeat when the report was lost (v1 create, booked: refunded)', async () => {
    const { listing, heartbeat } = await hostWithListing();
    const user = await renter();
    const before = await wallet(user.userId);
    const made = await v1Request(t, user.key, 'POST', '/instances', {
      gpuListingId: listing.id,
      durationHours: 2,
    });
    expect(made.statusCode).toBe(201);
    const id = (made.json().instance as PublicInstance).id;
    const desired = (await heartbeat()).instances.find((d) => d.id === String(id));
    await heartbeat([
      {
        id: String(id),
        generation: desired?.generation ?? 0,
        state: 'failed',
        ssh: null,
        vnc: null,
        error: 'no free SSH or VNC port',
      },
    ]);
    const { instance } = await views(user, id);
    expect(instance).toMatchObject({ status: 'failed', failureReason: 'no free SSH or VNC port' });
    expect(await wallet(user.userId)).toBe(before);
  });
});
