import { Send, Webhook } from 'lucide-react';
import { useId, useState } from 'react';
import type { WebhookEndpointView } from '../../../../shared/contracts/webhooks';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { useFormatDate } from '../../../lib/date-format';
import { useSendTestEvent } from '../api/send-test-event';
import { useUpdateWebhookEndpoint } from '../api/update-webhook-endpoint';
import { DeliveryLog } from './delivery-log';

/** How long the log is polled quickly after a test event, for its delivery to appear. */
const WATCH_AFTER_TEST_MS = 30_000;

/** Whether an endpoint gets every event: `*`, or no list at all. */
export function getsAllEvents(types: string[]): boolean {
  return types.length === 0 || types.includes('*');
}

function StatusBadge({ endpoint }: { endpoint: WebhookEndpointView }) {
  if (endpoint.enabled) {
    return endpoint.failingSince ? (
      <Badge tone="warning">Failing</Badge>
    ) : (
      <Badge tone="success">Enabled</Badge>
    );
  }
  return (
    <Badge tone={endpoint.disabledReason === 'failing' ? 'danger' : 'neutral'}>Disabled</Badge>
  );
}

/** One endpoint: what it gets, how it is doing, its actions and (opened) its delivery log. */
export function EndpointItem({
  endpoint,
  onRotate,
  onDelete,
}: {
  endpoint: WebhookEndpointView;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const formatDate = useFormatDate();
  const [logOpen, setLogOpen] = useState(false);
  const [watchUntil, setWatchUntil] = useState(0);
  const logId = useId();
  const sendTest = useSendTestEvent();
  const update = useUpdateWebhookEndpoint();
  const now = Date.now();
  const previousSigns =
    endpoint.previousSecretUntil !== null && new Date(endpoint.previousSecretUntil).getTime() > now;

  async function setEnabled(enabled: boolean) {
    try {
      await update.mutateAsync({ id: endpoint.id, enabled });
      toast({
        title: enabled ? 'Endpoint Enabled' : 'Endpoint Disabled',
        description: enabled
          ? 'Deliveries resume, the oldest waiting first.'
          : 'Nothing is sent to it until you enable it again.',
      });
    } catch (error) {
      toastFailure('Update Failed', error, 'Failed to update the endpoint. Please try again.');
    }
  }

  async function test() {
    try {
      const { eventId } = await sendTest.mutateAsync(endpoint.id);
      setLogOpen(true);
      setWatchUntil(Date.now() + WATCH_AFTER_TEST_MS);
      toast({
        title: 'Test Event Sent',
        description: `test.ping ${eventId} is on its way; see it in the delivery log.`,
      });
    } catch (error) {
      toastFailure('Test Failed', error, 'Failed to send a test event. Please try again.');
    }
  }

  return (
    <li
      className="grid min-w-0 gap-3 rounded-lg border border-border p-3 sm:p-4"
      aria-label={`Webhook endpoint ${endpoint.url}`}
    >
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <Webhook className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden />
        <span className="min-w-0 font-mono text-sm font-medium break-all">{endpoint.url}</span>
        <StatusBadge endpoint={endpoint} />
      </div>
      {endpoint.description ? <p className="text-sm">{endpoint.description}</p> : null}
      <div className="flex flex-wrap items-center gap-1.5">
        <span className="text-xs text-muted-foreground">Events:</span>
        {getsAllEvents(endpoint.types) ? (
          <Badge tone="info">All events</Badge>
        ) : (
          endpoint.types.map((type) => (
            <Badge key={type} tone="neutral" className="font-mono">
              {type}
            </Badge>
          ))
        )}
      </div>
      {!endpoint.enabled && endpoint.disabledReason === 'failing' ? (
        <p className="rounded-md bg-danger/10 p-3 text-sm text-danger-text">
          Disabled after failing for three days
          {endpoint.disabledAt ? ` (${formatDate(endpoint.disabledAt, { withTime: true })})` : ''}.
          Fix the endpoint, then enable it: deliveries resume from the oldest waiting.
        </p>
      ) : !endpoint.enabled ? (
        <p className="text-sm text-muted-foreground">
          Disabled by you
          {endpoint.disabledAt ? ` on ${formatDate(endpoint.disabledAt, { withTime: true })}` : ''}:
          nothing is sent to it until you enable it again.
        </p>
      ) : null}
      <p className="text-xs text-muted-foreground">
        {endpoint.failingSince ? (
          <span className="text-warning-text">
            Failing since {formatDate(endpoint.failingSince, { withTime: true })} ·{' '}
          </span>
        ) : null}
        {endpoint.pending === 0
          ? 'No deliveries waiting'
          : endpoint.pending === 1
            ? '1 delivery waiting'
            : `${endpoint.pending} deliveries waiting`}
        {previousSigns && endpoint.previousSecretUntil
          ? ` · Previous secret also signs until ${formatDate(endpoint.previousSecretUntil, { withTime: true })}`
          : ''}
        {` · Added ${formatDate(endpoint.createdAt)}`}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={sendTest.isPending || !endpoint.enabled}
          onClick={test}
        >
          <Send className="h-4 w-4" aria-hidden />
          {sendTest.isPending ? 'Sending...' : 'Send test event'}
        </Button>
        <Button
          variant="outline"
          size="sm"
          aria-expanded={logOpen}
          aria-controls={logId}
          onClick={() => setLogOpen(!logOpen)}
        >
          {logOpen ? 'Hide delivery log' : 'Show delivery log'}
        </Button>
        <Button variant="outline" size="sm" onClick={onRotate}>
          Rotate secret
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={update.isPending}
          onClick={() => setEnabled(!endpoint.enabled)}
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button variant="danger" size="sm" onClick={onDelete}>
          Delete
        </Button>
      </div>
      {logOpen ? (
        <DeliveryLog
          endpointId={endpoint.id}
          id={logId}
          canSend={endpoint.enabled}
          watchUntil={watchUntil}
        />
      ) : null}
    </li>
  );
}
