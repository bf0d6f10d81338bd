import { apiRequest } from '../../../lib/api-client';
import { reloadPage } from '../../../lib/navigation';
import { useAction } from '../../../lib/use-action';

async function demoLogin(): Promise<void> {
  await apiRequest('POST', '/api/login');
}

/** Demo sign-in: the answer is not read; success reloads the page, failure is only logged. */
export function useDemoLogin() {
  return useAction<void, void>(demoLogin, {
    onSuccess: () => reloadPage(),
    onError: (error) => console.error('Demo login failed', error),
  });
}
