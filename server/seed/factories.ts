import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type {
  GpuInfo,
  HeartbeatRequest,
  HostInventory,
} from '../../shared/contracts/agent-protocol';
import { dollarsToMicros } from '../../shared/rules/money';
import type { Conn, Tx } from '../db/client';
import {
  type DemoMachine,
  demoHostOutages,
  gpuListings,
  hosts,
  providers,
  users,
} from '../db/schema';
import { ledgerService } from '../modules/ledger/service';
import { derivedListingColumns } from '../modules/listings/service';

/**
 * Factories shared by the demo seed and the tests: both describe
 * the same world, so a test's data looks like the demo's.
 */
let sequence = 0;
const next = () => {
  sequence += 1;
  return `${Date.now().toString(36)}${sequence}`;
};

export interface UserInput {
  email?: string;
  firstName?: string | null;
  lastName?: string | null;
  isAdmin?: boolean;
  isDemo?: boolean;
  theme?: 'dark' | 'light' | 'pastel';
  /** Stored settings (shared/contracts/settings.ts); missing keys take the defaults. */
  settings?: Record<string, unknown>;
  /** Dollars granted through the ledger from the promotions account. */
  credits?: string;
  /** When the account was made (the clock's now); the database's now when omitted. */
  createdAt?: Date;
}

export async function createUser(tx: Tx, input: UserInput = {}) {
  const [user] = await tx
    .insert(users)
    .values({
      email: (input.email ?? `user-${next()}@example.test`).toLowerCase(),
      firstName: input.firstName === undefined ? 'Test' : input.firstName,
      lastName: input.lastName === undefined ? 'User' : input.lastName,
      isAdmin: input.isAdmin ?? false,
      isDemo: input.isDemo ?? false,
      theme: input.theme ?? 'dark',
      ...(input.createdAt ? { createdAt: input.createdAt, updatedAt: input.createdAt } : {}),
      ...(input.settings ? { settings: input.settings } : {}),
    })
    .returning();
  if (!user) throw new Error('user insert returned nothing');
  await ledgerService.openWallet(tx, user.id);
  if (input.credits && input.credits !== '0') {
    await ledgerService.grant(tx, {
      userId: user.id,
      amountMicros: dollarsToMicros(input.credits),
      from: 'promotions',
      memo: 'Starting credits',
      idempotencyKey: `starting-credits:${user.id}`,
    });
  }
  return user;
}

export interface ProviderInput {
  userId?: string | null;
  companyName?: string;
  location?: string;
  isVerified?: boolean;
  reputation?: string;
  /** A demo visitor's own provider, whose listings only its owner sees and rents. */
  isSandbox?: boolean;
}

export async function createProvider(conn: Conn, input: ProviderInput = {}) {
  const [provider] = await conn
    .insert(providers)
    .values({
      userId: input.userId ?? null,
      companyName: input.companyName ?? `Provider ${next()}`,
      location: input.location ?? 'Frankfurt, Germany',
      isVerified: input.isVerified ?? true,
      reputation: input.reputation ?? '4.5',
      isSandbox: input.isSandbox ?? false,
    })
    .returning();
  if (!provider) throw new Error('provider insert returned nothing');
  return provider;
}

export interface ListingInput {
  providerId: number;
  model?: string;
  memory?: string;
  cudaCores?: number | null;
  tensorCores?: number | null;
  location?: string;
  bandwidth?: string;
  hourlyRate?: string;
  status?: 'available' | 'rented' | 'maintenance';
  availableCount?: number;
  totalCount?: number;
  pcieLanes?: string;
  powerConsumption?: string;
  cooling?: string;
  additionalSpecs?: string;
  isDemoHost?: boolean;
  /** An enrolled host of the same provider (createHost); its instances are placed there. */
  hostId?: string;
  hostGpuIndexes?: number[];
  /** The machine a demo-host listing stands for (its share, disk and versions). */
  demoMachine?: DemoMachine | null;
  /** When it was listed (a demo listing's reliability is measured from then). */
  createdAt?: Date;
}

/** A host as its agent reports it: 32 cores, 128 GB, 2 TB, KVM. */
export function hostInventory(overrides: Partial<HostInventory> = {}): HostInventory {
  return {
    hostname: 'gpu-box-1',
    cpu: { model: 'AMD EPYC', cores: 32 },
    memory: { totalBytes: 128 * 1024 ** 3, availableBytes: 100 * 1024 ** 3 },
    disk: { path: '/var/lib/rentgpu-agent', totalBytes: 2e12, freeBytes: 1.5e12 },
    accelerator: 'kvm',
    ...overrides,
  };
}

/** Two GPUs as nvidia-smi reports them; `reading(index)` overrides a GPU's fields. */
export function gpuInventory(
  name = 'NVIDIA GeForce RTX 4090',
  reading: (index: number) => Partial<GpuInfo> = () => ({}),
  count = 2,
): HeartbeatRequest['gpus'] {
  return {
    gpus: Array.from({ length: count }, (_, i) => i).map((index) => ({
      index,
      name,
      uuid: `GPU-${index}`,
      memoryTotalMib: 24_564,
      memoryUsedMib: 1,
      utilizationPercent: 0,
      temperatureC: 35,
      pciBusId: `00000000:${(index + 1).toString(16).padStart(2, '0')}:00.0`,
      ...reading(index),
    })),
    error: null,
  };
}

/** A heartbeat's inventory as the factories' hosts report it: `count` GPUs named `name`. */
function factoryInventory(
  name: string,
  count: number,
  machine: { cores: number; memoryGiB: number } | null = null,
) {
  return {
    host: hostInventory({
      hostname: 'gpu-host-1',
      ...(machine
        ? {
            cpu: { model: 'AMD EPYC', cores: machine.cores },
            memory: {
              totalBytes: machine.memoryGiB * 1024 ** 3,
              availableBytes: machine.memoryGiB * 1024 ** 3,
            },
          }
        : {}),
    }),
    gpus: gpuInventory(name, () => ({}), count),
    images: [],
  };
}

/**
 * An enrolled host of a provider that heartbeated at `lastHeartbeatAt` (default now): what an
 * agent leaves behind after enrolling. Its credential is returned for agent-side tests.
 */
export async function createHost(
  conn: Conn,
  input: {
    providerId: number;
    name?: string;
    lastHeartbeatAt?: Date | null;
    credential?: string;
    /** The name renters connect to, as the provider set it. */
    publicHost?: string | null;
    /**
     * The GPUs its last heartbeat reported (nvidia-smi names): by default 2 × RTX 4090, what
     * the test agents' heartbeats report (server/test/hosts.ts); null: no inventory yet.
     */
    gpus?: { name: string; count: number } | null;
    /** Its machine as its heartbeat reports it (default: hostInventory's 32 cores, 128 GB). */
    machine?: { cores: number; memoryGiB: number };
  },
) {
  const gpus =
    input.gpus === undefined ? { name: 'NVIDIA GeForce RTX 4090', count: 2 } : input.gpus;
  const credential = input.credential ?? randomBytes(32).toString('base64url');
  const at = input.lastHeartbeatAt === undefined ? new Date() : input.lastHeartbeatAt;
  const [host] = await conn
    .insert(hosts)
    .values({
      id: randomUUID(),
      providerId: input.providerId,
      name: input.name ?? 'gpu-host-1',
      enrolledAt: at ?? new Date(),
      credentialHash: createHash('sha256').update(credential).digest('hex'),
      hostname: 'gpu-host-1',
      agentVersion: 'test',
      accelerator: 'kvm',
      lastHeartbeatAt: at,
      publicHost: input.publicHost ?? null,
      inventory:
        gpus === null ? null : factoryInventory(gpus.name, gpus.count, input.machine ?? null),
    })
    .returning();
  if (!host) throw new Error('host insert returned nothing');
  return { ...host, credential };
}

export async function createListing(conn: Conn, input: ListingInput) {
  const totalCount = input.totalCount ?? input.availableCount ?? 1;
  const bandwidth = input.bandwidth ?? '10 Gbps';
  const [listing] = await conn
    .insert(gpuListings)
    .values({
      providerId: input.providerId,
      model: input.model ?? 'RTX 4090',
      memory: input.memory ?? '24GB',
      cudaCores: input.cudaCores === undefined ? 16384 : input.cudaCores,
      tensorCores: input.tensorCores === undefined ? 512 : input.tensorCores,
      location: input.location ?? 'Frankfurt, Germany',
      bandwidth,
      hourlyRateMicros: dollarsToMicros(input.hourlyRate ?? '1.50'),
      status: input.status ?? 'available',
      availableCount: input.availableCount ?? totalCount,
      totalCount,
      specifications: {
        bandwidth,
        pcieLanes: input.pcieLanes ?? '16x',
        powerConsumption: input.powerConsumption ?? '450W',
        cooling: input.cooling ?? 'Air Cooled',
        additionalSpecs: input.additionalSpecs ?? '',
      },
      isDemoHost: input.isDemoHost ?? input.hostId === undefined,
      hostId: input.hostId ?? null,
      hostGpuIndexes: input.hostGpuIndexes ?? (input.hostId ? [...Array(totalCount).keys()] : []),
      ...derivedListingColumns(input.model ?? 'RTX 4090', input.memory ?? '24GB'),
      ...(input.demoMachine ? { demoMachine: input.demoMachine } : {}),
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    })
    .returning();
  if (!listing) throw new Error('listing insert returned nothing');
  return listing;
}

/** A demo listing's recorded outages (its machine's history, measured as a host's). */
export async function recordDemoOutages(
  conn: Conn,
  listingId: number,
  outages: readonly { startedAt: Date; endedAt: Date }[],
) {
  if (outages.length === 0) return;
  await conn.insert(demoHostOutages).values(outages.map((o) => ({ listingId, ...o })));
}

/** A public provider by name (demo visitors' own providers share a name and are skipped). */
export async function findProviderByCompany(conn: Conn, companyName: string) {
  const rows = await conn
    .select()
    .from(providers)
    .where(and(eq(providers.companyName, companyName), eq(providers.isSandbox, false)))
    .limit(1);
  return rows[0] ?? null;
}
