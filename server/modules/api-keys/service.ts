import {
  API_KEY_PREFIX,
  type ApiKeyPermission,
  MAX_API_KEYS,
  type RateTier,
} from '../../../shared/contracts/api-keys';
import { KEY_ROTATION_MS, type KeyRotation } from '../../../shared/contracts/settings';
import type { Conn } from '../../db/client';
import type { ApiKey } from '../../db/schema';
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
    if (!(await apiKeysRepo.revoke(conn, userId, id, now))) throw notFound('API key');
  },

  /** For the public API: the key's owner and rights, or null for an unknown, revoked or expired key. */
  async authenticate(conn: Conn, key: string, now: Date): Promise<AuthenticatedKey | null> {
    if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return null;
    const row = await apiKeysRepo.findUsable(conn, hashApiKey(key), now);
    if (!row) return null;
    await apiKeysRepo.touch(conn, row.id, now);
    return {
      keyId: row.id,
      userId: row.userId,
      permissions: row.permissions as ApiKeyPermission[],
      rateTier: row.rateTier as RateTier,
    };
  },

  applyRotation(conn: Conn, userId: string, rotation: KeyRotation) {
    return apiKeysRepo.setExpiryFromCreation(conn, userId, KEY_ROTATION_MS[rotation]);
  },

  listAll: (conn: Conn, userId: string) => apiKeysRepo.listAll(conn, userId),
  deleteAllForUser: (conn: Conn, userId: string) => apiKeysRepo.deleteByUser(conn, userId),
};
