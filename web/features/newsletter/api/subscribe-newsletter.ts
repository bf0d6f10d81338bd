import { useMutation } from '@tanstack/react-query';
import type {
  SubscribeNewsletterBody,
  SubscribeNewsletterResponse,
} from '../../../../shared/contracts/newsletter';
import { apiJson } from '../../../lib/api-client';

export const subscribeNewsletter = (body: SubscribeNewsletterBody) =>
  apiJson<SubscribeNewsletterResponse>('POST', '/api/newsletter/subscribe', body);

export const useSubscribeNewsletter = () => useMutation({ mutationFn: subscribeNewsletter });
