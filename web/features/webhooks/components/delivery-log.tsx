import { useState } from 'react';
import type { WebhookDeliveryView } from '../../../../shared/contracts/webhooks';
import { FilterButtons } from '../../../components/ui/filter-buttons';
import { Skeleton } from '../../../components/ui/skeleton';
import { type DeliveryFilter, useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { DeliveryItem } from './delivery-item';

const FILTERS: [DeliveryFilter, string][] = [
  ['all', 'All'],
  ['pending', 'Waiting'],
  ['delivered', 'Delivered'],
  ['failed', 'Failed'],
];

const EMPTY: Record<DeliveryFilter, string> = {
  all: 'Nothing sent yet. Press “Send test event” to try the endpoint.',
  pending: 'No deliveries waiting.',
  delivered: 'No deliveries delivered yet.',
  failed: 'No deliveries gave up.',
};

/** One endpoint's deliveries, newest first, with their last attempt's outcome. */
export function DeliveryLog({
  endpointId,
  id,
  canSend,
  watchUntil,
}: {
  endpointId: string;
  id: string;
  /** Poll quickly until then (ms since the epoch): a test event was just sent. */
  watchUntil: number;
  /** False while the endpoint is disabled: nothing can be sent again until it is enabled. */
  canSend: boolean;
}) {
  const [filter, setFilter] = useState<DeliveryFilter>('all');
  const deliveries = useWebhookDeliveries(endpointId, filter, watchUntil);
  return (
    <section id={id} aria-label="Delivery log" className="grid gap-3 border-t border-border pt-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="mr-auto text-sm font-semibold">Delivery log</h3>
        <FilterButtons
          legend="Show deliveries"
          options={FILTERS}
          value={filter}
          onChange={setFilter}
          className="flex flex-wrap gap-1"
        />
      </div>
      {deliveries.isLoading ? (
        <Skeleton className="h-16" />
      ) : deliveries.error ? (
        <p className="text-sm text-danger-text">Could not load the deliveries.</p>
      ) : (deliveries.data ?? []).length === 0 ? (
        <p className="text-sm text-muted-foreground">{EMPTY[filter]}</p>
      ) : (
        <ul className="grid gap-2" aria-label="Deliveries">
          {(deliveries.data ?? []).map((delivery: WebhookDeliveryView) => (
            <DeliveryItem
              key={delivery.id}
              endpointId={endpointId}
              delivery={delivery}
              canSend={canSend}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
