import type { CurrentUser } from '../../../../shared/contracts/user';
import { getJson } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/query-keys';

/**
 * The signed-in user; null when signed out (401). Apart from get-current-user.ts because the
 * shell asks it before TanStack Query is loaded: a module is bundled whole, imports included.
 */
export function getCurrentUser(): Promise<CurrentUser | null> {
  return getJson<CurrentUser>(CURRENT_USER_KEY.join('/'), 'returnNull');
}
