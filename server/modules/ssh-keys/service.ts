import { createHash } from 'node:crypto';
import { type LaunchWarning, sshKeyWarnings } from '../../../shared/contracts/launch-warnings';
import type { AddSshKeyBody } from '../../../shared/contracts/ssh-keys';
import { MAX_SSH_KEYS } from '../../../shared/contracts/ssh-keys';
import { parseSshPublicKey } from '../../../shared/rules/ssh-key';
import type { Conn, Db } from '../../db/client';
import { bindDb } from '../../lib/bind-db';
import { badRequest, conflict, limitReached, notFound } from '../../lib/errors';
import { sshKeysRepo } from './repo';

/** SHA256:… exactly as `ssh-keygen -l` prints it (unpadded base64 of the key blob's hash). */
export function sshFingerprint(blob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

export const sshKeysService = {
  async add(conn: Conn, userId: string, input: AddSshKeyBody) {
    const parsed = parseSshPublicKey(input.publicKey);
    if (!parsed.ok) throw badRequest(parsed.error, { fields: { publicKey: [parsed.error] } });
    if ((await sshKeysRepo.countByUser(conn, userId)) >= MAX_SSH_KEYS) {
      throw limitReached('SSH keys', MAX_SSH_KEYS);
    }
    const row = await sshKeysRepo.insert(conn, {
      userId,
      name: input.name.trim(),
      keyType: parsed.type,
      publicKey: `${parsed.type} ${parsed.base64}${parsed.comment ? ` ${parsed.comment}` : ''}`,
      fingerprint: sshFingerprint(parsed.blob),
      comment: parsed.comment,
    });
    if (!row) throw conflict('You have already added this SSH key.');
    return row;
  },

  list: (conn: Conn, userId: string) => sshKeysRepo.listByUser(conn, userId),

  /** Each user's OpenSSH public keys (an instance's keys at its creation). */
  async publicKeysOf(conn: Conn, userIds: string[]): Promise<Map<string, string[]>> {
    const byUser = new Map<string, string[]>();
    if (userIds.length === 0) return byUser;
    for (const k of await sshKeysRepo.publicKeysOf(conn, userIds)) {
      byUser.set(k.userId, [...(byUser.get(k.userId) ?? []), k.publicKey]);
    }
    return byUser;
  },

  async remove(conn: Conn, userId: string, id: string) {
    if (!(await sshKeysRepo.remove(conn, userId, id))) throw notFound('SSH key');
  },

  /**
   * The authorized_keys lines to install on an instance: the named keys (all must be the
   * user's) or, when none are named, every key the user has.
   */
  async authorizedKeys(conn: Conn, userId: string, ids?: string[]): Promise<string[]> {
    const rows =
      ids && ids.length > 0
        ? await sshKeysRepo.listByIds(conn, userId, ids)
        : await sshKeysRepo.listByUser(conn, userId);
    if (ids && rows.length !== new Set(ids).size) throw notFound('SSH key');
    return rows.map((row) => row.publicKey);
  },

  deleteAllForUser: (conn: Conn, userId: string) => sshKeysRepo.deleteByUser(conn, userId),
};

/** The routes' SSH keys (app.deps.sshKeys): the database bound, an addition in one transaction. */
export function createSshKeysService(db: Db) {
  return {
    ...bindDb(db, sshKeysService, ['list', 'remove']),
    add: (userId: string, input: AddSshKeyBody) =>
      db.transaction((tx) => sshKeysService.add(tx, userId, input)),
  };
}

export type SshKeysService = ReturnType<typeof createSshKeysService>;

/**
 * What a launch warns about: NO_SSH_KEY unless a key was named or the account had one when
 * it opened (`renterHasSshKey`, read in the launch's own statement: commands/open.ts).
 */
export function launchWarnings(
  launched: { renterHasSshKey?: boolean },
  sshKeyId?: string,
): LaunchWarning[] {
  if (sshKeyId) return [];
  if (launched.renterHasSshKey === undefined) {
    throw new Error('a launch answered without whether its renter has an SSH key');
  }
  return sshKeyWarnings(launched.renterHasSshKey ? 1 : 0);
}
