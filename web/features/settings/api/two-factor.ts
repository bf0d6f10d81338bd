import { useQueryClient } from '@tanstack/react-query';
import type { RecoveryCodes, TwoFactorSetup } from '../../../../shared/contracts/two-factor';
import { apiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** Settings → Security → two-factor (docs/decisions/023-two-factor-sign-in.md). */
export function useTwoFactorSetup() {
  return useAction(async (_: undefined) => {
    const res = await apiRequest('POST', '/api/auth/two-factor/setup');
    return (await res.json()) as TwoFactorSetup;
  });
}

/** The settings object reports two-factor: a cached copy must not save the old value back. */
function useForgetSettings() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ predicate: (q) => q.queryKey[2] === 'settings' });
}

export function useTwoFactorEnable() {
  const forget = useForgetSettings();
  return useAction(async (code: string) => {
    const res = await apiRequest('POST', '/api/auth/two-factor/enable', { code });
    await forget();
    return (await res.json()) as RecoveryCodes;
  });
}

export function useTwoFactorDisable() {
  const forget = useForgetSettings();
  return useAction(async (code: string) => {
    await apiRequest('POST', '/api/auth/two-factor/disable', { code });
    await forget();
  });
}
