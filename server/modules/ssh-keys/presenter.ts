import type { SshKeyView } from '../../../shared/contracts/ssh-keys';
import type { SshKey } from '../../db/schema';

export function presentSshKey(row: SshKey): SshKeyView {
  return {
    id: row.id,
    name: row.name,
    type: row.keyType,
    fingerprint: row.fingerprint,
    comment: row.comment,
    createdAt: row.createdAt.toISOString(),
  };
}
