import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { reloadPage } from '../../../lib/navigation';

/** Demo sign-in: the answer is not read; success reloads the page, failure is only logged. */
export function useDemoLogin() {
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/login');
    },
    onSuccess: () => reloadPage(),
    onError: (error) => console.error('Demo login failed', error),
  });
}
