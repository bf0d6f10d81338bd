import { useState } from 'react';

interface ActionHandlers<R> {
  onSuccess?: (result: R) => void;
  onError?: (error: unknown) => void;
}

/**
 * One request a person starts (send a code, sign in) and whether it is under way or done:
 * useMutation's shape without TanStack Query, so the signed-out pages' first JavaScript
 * stays small. mutate never throws (onError sees the failure); mutateAsync does.
 */
export function useAction<A, R>(run: (arg: A) => Promise<R>, handlers: ActionHandlers<R> = {}) {
  const [status, setStatus] = useState<'idle' | 'pending' | 'success' | 'error'>('idle');

  async function mutateAsync(arg: A): Promise<R> {
    setStatus('pending');
    try {
      const result = await run(arg);
      setStatus('success');
      handlers.onSuccess?.(result);
      return result;
    } catch (error) {
      setStatus('error');
      handlers.onError?.(error);
      throw error;
    }
  }
  function mutate(arg: A): void {
    mutateAsync(arg).catch(() => {
      // onError has seen it.
    });
  }
  return {
    mutate,
    mutateAsync,
    isPending: status === 'pending',
    isSuccess: status === 'success',
  };
}
