import { useMutation } from '@tanstack/react-query';
import type {
  SendContactMessageBody,
  SendContactMessageResponse,
} from '../../../../shared/contracts/contact';
import { apiJson } from '../../../lib/api-client';

export const sendContactMessage = (body: SendContactMessageBody) =>
  apiJson<SendContactMessageResponse>('POST', '/api/contact', body);

export const useSendContactMessage = () => useMutation({ mutationFn: sendContactMessage });
