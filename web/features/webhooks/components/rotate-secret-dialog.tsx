import { useState } from 'react';
import {
  WEBHOOK_ROTATION_HOURS,
  type WebhookEndpointView,
  type WebhookEndpointWithSecret,
} from '../../../../shared/contracts/webhooks';
import { Button } from '../../../components/ui/button';
import { Dialog, type ItemDialogProps } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast-store';
import { serverMessage } from '../../../lib/api-client';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret';
import { SecretOnce } from './secret-once';

/** Rotate secret: asked first; then the new secret, shown once. */
export function RotateSecretDialog({
  item: endpoint,
  onClose,
}: ItemDialogProps<WebhookEndpointView>) {
  const rotate = useRotateWebhookSecret();
  const [rotated, setRotated] = useState<WebhookEndpointWithSecret | null>(null);
  const close = () => {
    setRotated(null);
    onClose();
  };
  if (rotated) {
    return (
      <Dialog
        open={endpoint !== null}
        onOpenChange={(open) => !open && close()}
        title="Your new signing secret"
        description={`Both secrets sign every delivery for the next ${WEBHOOK_ROTATION_HOURS} hours: switch your receiver to this one before then.`}
        footer={<Button onClick={close}>Done</Button>}
      >
        <SecretOnce secret={rotated.secret} />
      </Dialog>
    );
  }
  return (
    <Dialog
      open={endpoint !== null}
      onOpenChange={(open) => !open && close()}
      title="Rotate the signing secret?"
      description={
        <>
          A new secret is made and shown once. For {WEBHOOK_ROTATION_HOURS} hours both the old and
          the new secret sign every delivery (two signatures in webhook-signature), so your receiver
          keeps verifying while you switch it; after that only the new one signs.
        </>
      }
      onCancel={close}
      footer={
        <Button
          disabled={rotate.isPending}
          onClick={async () => {
            if (!endpoint) return;
            try {
              setRotated(await rotate.mutateAsync(endpoint.id));
              toast({ title: 'Secret Rotated', description: 'Copy the new secret now.' });
            } catch (error) {
              toast({
                title: 'Rotation Failed',
                description: serverMessage(error, 'Failed to rotate the secret. Please try again.'),
                variant: 'destructive',
              });
            }
          }}
        >
          {rotate.isPending ? 'Rotating...' : 'Rotate Secret'}
        </Button>
      }
    >
      <span className="sr-only">Confirm rotating the secret of {endpoint?.url}</span>
    </Dialog>
  );
}
