import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

interface RefreshOptions {
  /** 'settled': refresh after a failure too (a failed request may still have changed something). */
  when?: 'success' | 'settled';
  /** The answer is the saved object: it becomes this query's data at once. */
  cacheAs?: QueryKey;
}

/**
 * A mutation that refreshes the queries under these keys when it ends (after a success
 * unless `when` says otherwise). The refresh is awaited, so mutateAsync resolves once the
 * queries have been asked for again.
 */
export function useRefreshingMutation<A, R>(
  mutationFn: (arg: A) => Promise<R>,
  keys: readonly QueryKey[],
  { when = 'success', cacheAs }: RefreshOptions = {},
) {
  const queryClient = useQueryClient();
  const refresh = async () => {
    await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  };
  const onSuccess = async (answer: R) => {
    if (cacheAs) queryClient.setQueryData(cacheAs, answer);
    await refresh();
  };
  return useMutation<R, Error, A>(
    when === 'settled' ? { mutationFn, onSettled: refresh } : { mutationFn, onSuccess },
  );
}
