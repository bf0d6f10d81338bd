import {
  API_KEY_PREFIX,
  type ApiKeyCapsBody,
  type ApiKeyPermission,
  MAX_API_KEYS,
  type RateTier,
} from '../../../shared/contracts/api-keys';
import { KEY_ROTATION_MS, type KeyRotation } from '../../../shared/contracts/settings';
import type { Conn, Db } from '../../db/client';
import type { ApiKey } from '../../db/schema';
import { bindDb } from '../../lib/bind-db';
import { randomToken, sha256 } from '../../lib/crypto';
import { limitReached, notFound } from '../../lib/errors';
import type { Signals } from '../../lib/signals';
import { spendCapsService } from '../spend-caps/service';
import { usersService } from '../users/service';
import { apiKeysRepo } from './repo';

/** Characters of the key kept in the clear, enough to tell keys apart in a list. */
const VISIBLE_CHARS = API_KEY_PREFIX.length + 8;

/**
 * Keys are 256 random bits, so a plain SHA-256 is enough to store them: there is nothing to
 * guess, and the database alone never yields a working key.
 */
export function hashApiKey(key: string): string {
  return sha256(`api-key:${key}`);
}

/**
 * Authentications are remembered this long in each app (createApiKeysService), so a busy key
 * costs no query per request. Revoking, rotating or deleting is published as a signal after
 * it commits (docs/decisions/017): every process forgets the key as it hears it, and one that
 * missed the signal forgets it within this time (ADR 012).
 */
export const AUTH_CACHE_MS = 5_000;
const AUTH_CACHE_MAX = 10_000;
const wellFormed = (key: string) => key.startsWith(API_KEY_PREFIX) && key.length <= 200;

/** The part of a key a key list shows (its prefix), or null for what cannot be a key. */
export const visiblePartOf = (key: string): string | null =>
  wellFormed(key) ? key.slice(0, VISIBLE_CHARS) : null;

/** One app's remembered authentications, by key hash. */
function createAuthMemory() {
  const entries = new Map<
    string,
    { key: AuthenticatedKey; until: number; expiresAt: number | null }
  >();
  /** Bumped by every forget: a lookup that began before one is not remembered. */
  let generation = 0;
  return {
    /** A remembered authentication still good at `at` (neither its memory nor the key expired). */
    get(hash: string, at: number): AuthenticatedKey | undefined {
      const hit = entries.get(hash);
      if (hit && hit.until > at && (hit.expiresAt === null || hit.expiresAt > at)) return hit.key;
      return undefined;
    },
    get generation() {
      return generation;
    },
    remember(
      hash: string,
      key: AuthenticatedKey,
      at: number,
      expiresAt: number | null,
      since: number,
    ) {
      if (since !== generation) return;
      if (entries.size >= AUTH_CACHE_MAX) entries.clear();
      entries.set(hash, { key, until: at + AUTH_CACHE_MS, expiresAt });
    },
    delete(hash: string) {
      entries.delete(hash);
    },
    forget(match: (key: AuthenticatedKey) => boolean) {
      generation += 1;
      for (const [hash, entry] of entries) if (match(entry.key)) entries.delete(hash);
    },
  };
}

export interface AuthenticatedKey {
  keyId: string;
  userId: string;
  permissions: ApiKeyPermission[];
  rateTier: RateTier;
}

export const apiKeysService = {
  /** Creates a key; the full key is returned here and never again. */
  async create(
    conn: Conn,
    userId: string,
    input: { name: string; permissions: ApiKeyPermission[] },
    now: Date,
  ): Promise<{ row: ApiKey; key: string }> {
    if ((await apiKeysRepo.countLive(conn, userId)) >= MAX_API_KEYS) {
      throw limitReached('API keys', MAX_API_KEYS);
    }
    const { security } = await usersService.getSettings(conn, userId);
    const period = KEY_ROTATION_MS[security.apiKeyRotation];
    const key = `${API_KEY_PREFIX}${randomToken(32)}`;
    const row = await apiKeysRepo.insert(conn, {
      userId,
      name: input.name,
      prefix: key.slice(0, VISIBLE_CHARS),
      keyHash: hashApiKey(key),
      permissions: input.permissions,
      rateTier: 'standard',
      createdAt: now,
      expiresAt: period === null ? null : new Date(now.getTime() + period),
    });
    return { row, key };
  },

  list(conn: Conn, userId: string) {
    return apiKeysRepo.listLive(conn, userId);
  },

  /** Revokes a key; the caller publishes `api-key` after commit (createApiKeysService does). */
  async revoke(conn: Conn, userId: string, id: string, now: Date): Promise<void> {
    const revoked = await apiKeysRepo.revoke(conn, userId, id, now);
    if (!revoked) throw notFound('API key');
  },

  /**
   * The key's owner and rights as the database says now (and its expiry), or null for an
   * unknown, revoked or expired key; its last use is written (at most once a minute).
   */
  async lookup(
    conn: Conn,
    key: string,
    now: Date,
  ): Promise<{ key: AuthenticatedKey; expiresAt: number | null } | null> {
    if (!wellFormed(key)) return null;
    const row = await apiKeysRepo.findUsable(conn, hashApiKey(key), now);
    if (!row) return null;
    await apiKeysRepo.touch(conn, row.id, now);
    return {
      key: {
        keyId: row.id,
        userId: row.userId,
        permissions: row.permissions as ApiKeyPermission[],
        rateTier: row.rateTier as RateTier,
      },
      expiresAt: row.expiresAt?.getTime() ?? null,
    };
  },

  /** Re-dates a user's keys; the caller publishes `api-keys-of-user` after commit. */
  async applyRotation(conn: Conn, userId: string, rotation: KeyRotation) {
    await apiKeysRepo.setExpiryFromCreation(conn, userId, KEY_ROTATION_MS[rotation]);
  },

  listAll: (conn: Conn, userId: string) => apiKeysRepo.listAll(conn, userId),
  /** Deletes a user's keys; the caller publishes `api-keys-of-user` after commit. */
  async deleteAllForUser(conn: Conn, userId: string) {
    await apiKeysRepo.deleteByUser(conn, userId);
  },
};

/**
 * The routes' API keys (app.deps.apiKeys): the database bound, a new key in one transaction,
 * and this app's memory of authentications, which every process's revocations reach as
 * signals (a process whose listener reconnects forgets everything).
 */
export function createApiKeysService(db: Db, signals: Signals) {
  const memory = createAuthMemory();
  const everything = () => true;
  signals.on('api-key', (id) =>
    memory.forget(id === undefined ? everything : (k) => k.keyId === id),
  );
  signals.on('api-keys-of-user', (id) =>
    memory.forget(id === undefined ? everything : (k) => k.userId === id),
  );
  signals.onResync(() => memory.forget(everything));

  return {
    ...bindDb(db, apiKeysService, ['list']),

    /** Revoked keys stop matching in every process once this answers (the signal is sent). */
    async revoke(userId: string, id: string, now: Date): Promise<void> {
      await apiKeysService.revoke(db, userId, id, now);
      await signals.publish('api-key', id);
    },

    /**
     * The key as authenticate() remembered it (for AUTH_CACHE_MS), without a promise;
     * undefined when it is not remembered (then authenticate() reads the row).
     */
    authenticateRemembered(key: string, now: Date): AuthenticatedKey | undefined {
      return wellFormed(key) ? memory.get(hashApiKey(key), now.getTime()) : undefined;
    },

    /** For the public API: the key's owner and rights, or null (unknown, revoked, expired). */
    async authenticate(key: string, now: Date): Promise<AuthenticatedKey | null> {
      if (!wellFormed(key)) return null;
      const hash = hashApiKey(key);
      const at = now.getTime();
      const hit = memory.get(hash, at);
      if (hit) return hit;
      const since = memory.generation;
      const found = await apiKeysService.lookup(db, key, now);
      if (!found) {
        memory.delete(hash);
        return null;
      }
      memory.remember(hash, found.key, at, found.expiresAt, since);
      return found.key;
    },

    /** Sets a live key's spend caps (404 when it is not the user's); the key as it is now. */
    async setCaps(userId: string, id: string, caps: ApiKeyCapsBody) {
      await spendCapsService.setKeyCaps(db, userId, id, caps);
      const row = (await apiKeysService.list(db, userId)).find((k) => k.id === id);
      if (!row) throw notFound('API key');
      return row;
    },

    create: (userId: string, input: { name: string; permissions: ApiKeyPermission[] }, now: Date) =>
      db.transaction((tx) => apiKeysService.create(tx, userId, input, now)),
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
