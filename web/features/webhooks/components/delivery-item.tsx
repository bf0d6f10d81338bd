import { RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import type { WebhookDeliveryView } from '../../../../shared/contracts/webhooks';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { useFormatDate } from '../../../lib/date-format';
import { useResendWebhookDelivery } from '../api/resend-webhook-delivery';

const STATUS: Record<WebhookDeliveryView['status'], { label: string; tone: BadgeTone }> = {
  pending: { label: 'Waiting', tone: 'warning' },
  delivered: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

/** A response excerpt longer than this opens on demand. */
const EXCERPT_INLINE_CHARS = 160;

export function formatLatency(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 content-start gap-0.5">
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

/**
 * One delivery as a card on every width (no table whose columns a phone would have to hide or
 * scroll): its event, status, HTTP status, latency, attempts, next retry and the answer.
 */
export function DeliveryItem({
  endpointId,
  delivery,
  canSend,
}: {
  endpointId: string;
  delivery: WebhookDeliveryView;
  canSend: boolean;
}) {
  const formatDate = useFormatDate();
  const resend = useResendWebhookDelivery();
  const status = STATUS[delivery.status];
  const retrying = delivery.status === 'pending' && delivery.attempts > 0;
  const excerpt = delivery.responseExcerpt ?? '';
  return (
    <li
      className="grid gap-3 rounded-lg border border-border p-3"
      aria-label={`Delivery of ${delivery.eventType} ${delivery.eventId}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge tone={status.tone}>{retrying ? 'Retrying' : status.label}</Badge>
        <span className="font-mono text-sm font-medium break-all">{delivery.eventType}</span>
        <span className="font-mono text-xs text-muted-foreground">{delivery.eventId}</span>
        <span className="text-xs text-muted-foreground">
          {formatDate(delivery.createdAt, { withTime: true })}
        </span>
        <Button
          variant="outline"
          size="sm"
          className="ml-auto"
          disabled={resend.isPending || !canSend}
          onClick={async () => {
            try {
              await resend.mutateAsync({ endpointId, deliveryId: delivery.id });
              toast({
                title: 'Sent Again',
                description: `${delivery.eventType} is on its way again, with the same webhook-id.`,
              });
            } catch (error) {
              toastFailure(
                'Send Again Failed',
                error,
                'Failed to send it again. Please try again.',
              );
            }
          }}
        >
          <RotateCw className="h-4 w-4" aria-hidden />
          {resend.isPending ? 'Sending...' : 'Send again'}
        </Button>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        <Detail term="HTTP status">
          {delivery.lastStatus ?? (delivery.attempts === 0 ? '—' : 'No answer')}
        </Detail>
        <Detail term="Latency">
          {delivery.lastLatencyMs === null ? '—' : formatLatency(delivery.lastLatencyMs)}
        </Detail>
        <Detail term="Attempts">{delivery.attempts}</Detail>
        <Detail term="Last attempt">
          {delivery.lastAttemptAt
            ? formatDate(delivery.lastAttemptAt, { withTime: true })
            : 'Not yet'}
        </Detail>
        <Detail term="Next retry">
          {delivery.status === 'pending' && delivery.nextAttemptAt
            ? formatDate(delivery.nextAttemptAt, { withTime: true })
            : '—'}
        </Detail>
      </dl>
      {delivery.lastError ? <p className="text-sm text-danger-text">{delivery.lastError}</p> : null}
      {excerpt === '' ? null : excerpt.length <= EXCERPT_INLINE_CHARS ? (
        <div className="grid gap-1">
          <span className="text-xs text-muted-foreground">Response</span>
          <pre className="rounded-md bg-muted px-2 py-1 font-mono text-xs whitespace-pre-wrap break-all">
            {excerpt}
          </pre>
        </div>
      ) : (
        <details className="grid gap-1">
          <summary className="cursor-pointer text-xs text-muted-foreground">
            Response ({excerpt.length.toLocaleString('en-US')} characters)
          </summary>
          <pre className="mt-1 rounded-md bg-muted px-2 py-1 font-mono text-xs whitespace-pre-wrap break-all">
            {excerpt}
          </pre>
        </details>
      )}
    </li>
  );
}
