import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HostView } from '../../../../shared/contracts/hosts';
import { apiRequest } from '../../../lib/api-client';
import { providerKeys } from './keys';

/** Hosts are polled like the marketplace stats: every 30 seconds (their heartbeat interval). */
export const HOSTS_POLL_MS = 30_000;

/** The signed-in provider's hosts (not removed), oldest first. */
export async function getProviderHosts(): Promise<HostView[]> {
  const res = await apiRequest('GET', '/api/providers/hosts');
  return ((await res.json()) as { hosts: HostView[] }).hosts;
}

export const providerHostsQueryOptions = () =>
  queryOptions({
    queryKey: providerKeys.hosts,
    queryFn: getProviderHosts,
    refetchInterval: HOSTS_POLL_MS,
  });

export function useProviderHosts() {
  return useQuery(providerHostsQueryOptions());
}
