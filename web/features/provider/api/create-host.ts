import type { CreateHostBody, CreateHostResponse } from '../../../../shared/contracts/hosts';
import { apiJson } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/use-refreshing-mutation';
import { providerKeys } from './keys';

/** Adds a host; the answer carries its one-time enrolment token (shown once). */
export const createHost = (body: CreateHostBody) =>
  apiJson<CreateHostResponse>('POST', '/api/providers/hosts', body);

export function useCreateHost() {
  return useRefreshingMutation(createHost, [providerKeys.hosts]);
}
