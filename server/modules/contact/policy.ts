import { forbidden } from '../../lib/errors';
import type { RequestAuth } from '../../plugins/session';

/** Contact messages are read by admins only; an admin is marked in the database (users.is_admin). */
export function assertCanReadContactMessages(auth: RequestAuth): void {
  if (!auth.isAdmin) throw forbidden('Only administrators can read contact messages.');
}
