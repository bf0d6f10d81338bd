import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import {
  MAX_WEBHOOK_ENDPOINTS,
  type WebhookEndpointView,
} from '../../../../shared/contracts/webhooks';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useWebhookEndpoints } from '../api/get-webhook-endpoints';
import { AddEndpointDialog } from './add-endpoint-dialog';
import { DeleteEndpointDialog } from './delete-endpoint-dialog';
import { EndpointItem } from './endpoint-item';
import { RotateSecretDialog } from './rotate-secret-dialog';

/** Where the documentation explains events, signatures and a receiver. */
export const WEBHOOK_DOCS_HREF = '/documentation#webhooks';

/**
 * Settings → Webhooks (docs/decisions/027): the account's endpoints, each with its secret
 * (shown once), its state and its delivery log.
 */
export function WebhooksPanel() {
  const endpoints = useWebhookEndpoints();
  const [adding, setAdding] = useState(false);
  const [rotating, setRotating] = useState<WebhookEndpointView | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointView | null>(null);
  const full = (endpoints.data?.length ?? 0) >= MAX_WEBHOOK_ENDPOINTS;
  return (
    <Card className="min-w-0 p-4 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 flex-1 basis-64 gap-1">
          <h2 className="text-lg font-semibold">Webhooks</h2>
          <p className="text-sm text-muted-foreground">
            Every event of your account (instances, credits, spend caps, hosts) is sent to these
            URLs as a signed POST, retried until it is delivered.
          </p>
        </div>
        <Button
          onClick={() => setAdding(true)}
          disabled={full}
          aria-describedby={full ? 'webhooks-full' : undefined}
        >
          <Plus className="h-4 w-4" aria-hidden /> Add Endpoint
        </Button>
      </div>
      {full ? (
        <p id="webhooks-full" className="mt-2 text-xs text-muted-foreground">
          At most {MAX_WEBHOOK_ENDPOINTS} endpoints per account: delete one to add another.
        </p>
      ) : null}
      <div className="mt-4 rounded-md border border-border bg-muted/50 p-3 text-sm">
        <h3 className="font-medium">Verify signatures</h3>
        <p className="mt-1 text-muted-foreground">
          Each delivery carries webhook-id, webhook-timestamp and webhook-signature headers (the
          Standard Webhooks specification). Check them with your endpoint's secret before you trust
          a delivery, and drop a webhook-id you have seen: a delivery may come more than once.{' '}
          <Link
            href={WEBHOOK_DOCS_HREF}
            className="font-medium text-link underline underline-offset-2 hover:no-underline"
          >
            How to verify them
          </Link>
        </p>
      </div>
      {endpoints.isLoading ? (
        <Skeleton className="mt-4 h-24" />
      ) : endpoints.error ? (
        <p className="mt-4 text-sm text-danger-text">Could not load your webhook endpoints.</p>
      ) : endpoints.data?.length === 0 ? (
        <p className="mt-4 text-sm text-muted-foreground">No webhook endpoints yet.</p>
      ) : (
        <ul className="mt-4 grid gap-3" aria-label="Webhook endpoints">
          {endpoints.data?.map((endpoint) => (
            <EndpointItem
              key={endpoint.id}
              endpoint={endpoint}
              onRotate={() => setRotating(endpoint)}
              onDelete={() => setDeleting(endpoint)}
            />
          ))}
        </ul>
      )}
      <AddEndpointDialog open={adding} onOpenChange={setAdding} />
      <RotateSecretDialog item={rotating} onClose={() => setRotating(null)} />
      <DeleteEndpointDialog item={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}
