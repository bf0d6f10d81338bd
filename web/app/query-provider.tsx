import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { CurrentUser } from '../../shared/contracts/user';
import { createQueryClient } from '../lib/query-client';
import { CURRENT_USER_KEY } from '../lib/query-keys';

/**
 * The one query client of the page. It loads with the first page that needs it (every
 * signed-in page, the public pages), never with the signed-out landing page.
 */
const queryClient = createQueryClient();

/** The user the shell fetched before this code loaded, so the first render need not ask again. */
export function seedCurrentUser(user: CurrentUser): void {
  if (queryClient.getQueryData(CURRENT_USER_KEY) === undefined)
    queryClient.setQueryData(CURRENT_USER_KEY, user);
}

export default function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
