import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { WEBHOOK_ENDPOINTS_KEY, webhookEndpointUrl } from './keys';

/** Deletes an endpoint: nothing more is sent to it, pending deliveries included. */
export async function deleteWebhookEndpoint(id: string): Promise<void> {
  await apiRequest('DELETE', webhookEndpointUrl(id));
}

export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY }),
  });
}
