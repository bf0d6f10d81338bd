import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { providerKeys } from './keys';

/** Removes a host; the server refuses (409 HOST_IN_USE) while listings or instances use it. */
export async function removeHost(hostId: string): Promise<void> {
  await apiRequest('DELETE', `/api/providers/hosts/${encodeURIComponent(hostId)}`);
}

export function useRemoveHost() {
  return useRefreshingMutation(removeHost, [providerKeys.hosts]);
}
