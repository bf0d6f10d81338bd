import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ListProviderApplicationsResponse } from '../../../../shared/contracts/provider-application';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** Every provider application, pending first (admins only). */
export async function listProviderApplications() {
  const res = await apiRequest('GET', '/api/admin/provider-applications');
  return ((await res.json()) as ListProviderApplicationsResponse).applications;
}

export const providerApplicationsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.providerApplications, queryFn: listProviderApplications });

export function useProviderApplications() {
  return useQuery(providerApplicationsQueryOptions());
}
