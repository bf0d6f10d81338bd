import type { SubscribeNewsletterResponse } from '../../../shared/contracts/newsletter';

export function presentSubscription(email: string): SubscribeNewsletterResponse {
  return { message: 'Successfully subscribed', email };
}
