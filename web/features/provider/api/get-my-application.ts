import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyProviderApplicationResponse } from '../../../../shared/contracts/provider-application';
import { apiRequest } from '../../../lib/api-client';
import { MY_APPLICATION_KEY } from './keys';

/** The signed-in user's newest provider application, or null when they never applied. */
export async function getMyApplication() {
  const res = await apiRequest('GET', '/api/provider-applications/mine');
  return ((await res.json()) as MyProviderApplicationResponse).application;
}

export const myApplicationQueryOptions = () =>
  queryOptions({ queryKey: MY_APPLICATION_KEY, queryFn: getMyApplication });

export function useMyApplication(enabled = true) {
  return useQuery({ ...myApplicationQueryOptions(), enabled });
}
