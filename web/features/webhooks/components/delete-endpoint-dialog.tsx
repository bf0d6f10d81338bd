import type { WebhookEndpointView } from '../../../../shared/contracts/webhooks';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import type { ItemDialogProps } from '../../../components/ui/dialog';
import { useDeleteWebhookEndpoint } from '../api/delete-webhook-endpoint';

export function DeleteEndpointDialog({
  item: endpoint,
  onClose,
}: ItemDialogProps<WebhookEndpointView>) {
  const remove = useDeleteWebhookEndpoint();
  return (
    <ConfirmDialog
      item={endpoint}
      onClose={onClose}
      title="Delete this endpoint?"
      description={
        <>
          <span className="break-all">{endpoint?.url}</span> gets nothing more, deliveries still
          waiting included, and its delivery log goes with it.
        </>
      }
      confirmLabel="Delete Endpoint"
      pendingLabel="Deleting..."
      action={remove}
      success={() => ({ title: 'Endpoint Deleted', description: 'Nothing more is sent to it.' })}
      failureTitle="Delete Failed"
      fallback="Failed to delete the endpoint. Please try again."
    >
      <span className="sr-only">Confirm deleting the endpoint</span>
    </ConfirmDialog>
  );
}
