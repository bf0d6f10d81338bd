import { useMutation } from '@tanstack/react-query';
import type {
  SubscribeNewsletterBody,
  SubscribeNewsletterResponse,
} from '../../../../shared/contracts/newsletter';
import { apiRequest } from '../../../lib/api-client';

export async function subscribeNewsletter(
  body: SubscribeNewsletterBody,
): Promise<SubscribeNewsletterResponse> {
  const res = await apiRequest('POST', '/api/newsletter/subscribe', body);
  return (await res.json()) as SubscribeNewsletterResponse;
}

export function useSubscribeNewsletter() {
  return useMutation({ mutationFn: subscribeNewsletter });
}
