import { useMutation } from '@tanstack/react-query';
import type {
  SendContactMessageBody,
  SendContactMessageResponse,
} from '../../../../shared/contracts/contact';
import { apiRequest } from '../../../lib/api-client';

export async function sendContactMessage(
  body: SendContactMessageBody,
): Promise<SendContactMessageResponse> {
  const res = await apiRequest('POST', '/api/contact', body);
  return (await res.json()) as SendContactMessageResponse;
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
