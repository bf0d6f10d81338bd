import type { UpdateThemeBody } from '../../../../shared/contracts/user';
import type { Theme } from '../../../../shared/rules/theme';
import { apiRequest } from '../../../lib/api-client';

/** The answer is not read; a failure is only logged and the local change stays. */
export async function saveTheme(theme: Theme): Promise<void> {
  try {
    const body: UpdateThemeBody = { theme };
    await apiRequest('PATCH', '/api/user/theme', body);
  } catch (error) {
    console.error('Failed to save theme', error);
  }
}
