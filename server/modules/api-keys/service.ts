import {
  API_KEY_PREFIX,
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
 * Authentications are remembered this long in the process, so a busy key costs no query per
 * request. Revoking, rotating or deleting clears them here at once; another server process
 * sees a revocation within this time (ADR 012).
 */
export const AUTH_CACHE_MS = 5_000;
const AUTH_CACHE_MAX = 10_000;
const authCache = new Map<
  string,
  { key: AuthenticatedKey; until: number; expiresAt: number | null }
>();
/** A remembered authentication still good at `at` (neither its memory nor the key expired). */
function remembered(hash: string, at: number): AuthenticatedKey | undefined {
  const hit = authCache.get(hash);
  if (hit && hit.until > at && (hit.expiresAt === null || hit.expiresAt > at)) return hit.key;
  return undefined;
}
const wellFormed = (key: string) => key.startsWith(API_KEY_PREFIX) && key.length <= 200;
function forgetKeys(match: (key: AuthenticatedKey) => boolean): void {
  for (const [hash, entry] of authCache) if (match(entry.key)) authCache.delete(hash);
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

  /** Revoked keys stop matching at once: authenticate reads the row on every call. */
  async revoke(conn: Conn, userId: string, id: string, now: Date): Promise<void> {
    const revoked = await apiKeysRepo.revoke(conn, userId, id, now);
    forgetKeys((key) => key.keyId === id);
    if (!revoked) throw notFound('API key');
  },

  /**
   * The key as authenticate() remembered it (for AUTH_CACHE_MS), without a promise; undefined
   * when it is not remembered (then authenticate() reads the row).
   */
  authenticateRemembered(key: string, now: Date): AuthenticatedKey | undefined {
    return wellFormed(key) ? remembered(hashApiKey(key), now.getTime()) : undefined;
  },

  /** For the public API: the key's owner and rights, or null for an unknown, revoked or expired key. */
  async authenticate(conn: Conn, key: string, now: Date): Promise<AuthenticatedKey | null> {
    if (!wellFormed(key)) return null;
    const hash = hashApiKey(key);
    const at = now.getTime();
    const hit = remembered(hash, at);
    if (hit) return hit;
    const row = await apiKeysRepo.findUsable(conn, hash, now);
    if (!row) {
      authCache.delete(hash);
      return null;
    }
    await apiKeysRepo.touch(conn, row.id, now);
    const found: AuthenticatedKey = {
      keyId: row.id,
      userId: row.userId,
      permissions: row.permissions as ApiKeyPermission[],
      rateTier: row.rateTier as RateTier,
    };
    if (authCache.size >= AUTH_CACHE_MAX) authCache.clear();
    authCache.set(hash, {
      key: found,
      until: at + AUTH_CACHE_MS,
      expiresAt: row.expiresAt?.getTime() ?? null,
    });
    return found;
  },

  async applyRotation(conn: Conn, userId: string, rotation: KeyRotation) {
    await apiKeysRepo.setExpiryFromCreation(conn, userId, KEY_ROTATION_MS[rotation]);
    forgetKeys((key) => key.userId === userId);
  },

  listAll: (conn: Conn, userId: string) => apiKeysRepo.listAll(conn, userId),
  async deleteAllForUser(conn: Conn, userId: string) {
    await apiKeysRepo.deleteByUser(conn, userId);
    forgetKeys((key) => key.userId === userId);
  },
};

/** The routes' API keys (app.deps.apiKeys): the database bound, a new key in one transaction. */
export function createApiKeysService(db: Db) {
  return {
    ...bindDb(db, apiKeysService, ['list', 'revoke', 'authenticate']),
    authenticateRemembered: apiKeysService.authenticateRemembered,
    create: (userId: string, input: { name: string; permissions: ApiKeyPermission[] }, now: Date) =>
      db.transaction((tx) => apiKeysService.create(tx, userId, input, now)),
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
