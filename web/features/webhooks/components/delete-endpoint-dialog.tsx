import type { WebhookEndpointView } from '../../../../shared/contracts/webhooks';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast-store';
import { serverMessage } from '../../../lib/api-client';
import { useDeleteWebhookEndpoint } from '../api/delete-webhook-endpoint';

export function DeleteEndpointDialog({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpointView | null;
  onClose: () => void;
}) {
  const remove = useDeleteWebhookEndpoint();
  return (
    <Dialog
      open={endpoint !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete this endpoint?"
      description={
        <>
          <span className="break-all">{endpoint?.url}</span> gets nothing more, deliveries still
          waiting included, and its delivery log goes with it.
        </>
      }
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={async () => {
              if (!endpoint) return;
              try {
                await remove.mutateAsync(endpoint.id);
                toast({ title: 'Endpoint Deleted', description: 'Nothing more is sent to it.' });
                onClose();
              } catch (error) {
                toast({
                  title: 'Delete Failed',
                  description: serverMessage(
                    error,
                    'Failed to delete the endpoint. Please try again.',
                  ),
                  variant: 'destructive',
                });
              }
            }}
          >
            {remove.isPending ? 'Deleting...' : 'Delete Endpoint'}
          </Button>
        </>
      }
    >
      <span className="sr-only">Confirm deleting the endpoint</span>
    </Dialog>
  );
}
