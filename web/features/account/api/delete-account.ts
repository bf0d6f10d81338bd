import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export async function deleteAccount(userId: string): Promise<void> {
  await apiRequest('DELETE', `/api/users/${userId}`);
}

export function useDeleteAccount(userId: string) {
  return useMutation({ mutationFn: () => deleteAccount(userId) });
}
