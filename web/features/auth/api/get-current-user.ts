import { queryOptions, useQuery } from '@tanstack/react-query';
import { CURRENT_USER_STALE_MS } from '../../../../shared/constants';
import { CURRENT_USER_KEY } from '../../../lib/query-keys';
import { getCurrentUser } from './fetch-current-user';

/** Cached 5 minutes, no retry, no focus refetch, refetched on mount; 401 means signed out. */
export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: CURRENT_USER_KEY,
    queryFn: getCurrentUser,
    staleTime: CURRENT_USER_STALE_MS,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnMount: true,
  });

export function useCurrentUser() {
  const query = useQuery(currentUserQueryOptions());
  const user = query.data ?? null;
  return { user, isLoading: query.isLoading, isAuthenticated: Boolean(user) };
}
