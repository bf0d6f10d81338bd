import { Plus, ServerOff } from 'lucide-react';
import { useState } from 'react';
import type { CreateHostResponse, HostView } from '../../../../shared/contracts/hosts';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { toastFailure } from '../../../components/ui/toast-store';
import { useNow } from '../../../lib/use-now';
import { useProviderHosts } from '../api/get-provider-hosts';
import { useRenewEnrolment } from '../api/renew-enrolment';
import { AddHostDialog } from './add-host-dialog';
import { EnrolmentDialog } from './enrolment-dialog';
import { HostItem } from './host-item';
import { EmptyList } from './list-parts';
import { QueryError } from './query-error';
import { RemoveHostDialog } from './remove-host-dialog';
import { Section } from './section';

function HostList({
  hosts,
  renewingId,
  onAdd,
  onNewToken,
  onRemove,
}: {
  hosts: HostView[];
  renewingId: string | null;
  onAdd: () => void;
  onNewToken: (host: HostView) => void;
  onRemove: (host: HostView) => void;
}) {
  const now = useNow(10_000);
  if (hosts.length === 0) {
    return (
      <EmptyList
        icon={ServerOff}
        title="No hosts connected yet"
        action="Add your first host"
        onAction={onAdd}
      >
        Add a host to get a one-line command that installs the agent on your GPU machine. Once it is
        online, choose it in a listing so that renters' machines run there.
      </EmptyList>
    );
  }
  return (
    <ul className="grid gap-3" aria-label="My hosts">
      {hosts.map((host) => (
        <HostItem
          key={host.id}
          host={host}
          now={now}
          renewing={renewingId === host.id}
          onNewToken={onNewToken}
          onRemove={onRemove}
        />
      ))}
    </ul>
  );
}

/** Hosts: the provider's machines running the agent, polled every 30 seconds. */
export function HostsSection() {
  const hosts = useProviderHosts();
  const renew = useRenewEnrolment();
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<CreateHostResponse | null>(null);
  const [removing, setRemoving] = useState<HostView | null>(null);

  async function newToken(host: HostView) {
    try {
      setShown(await renew.mutateAsync(host.id));
    } catch (failure) {
      toastFailure(
        'Failed to Create Token',
        failure,
        'Failed to create a new token. Please try again.',
      );
    }
  }

  return (
    <Section
      id="provider-hosts-title"
      title="Hosts"
      action={
        <Button variant="outline" onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" aria-hidden />
          Add Host
        </Button>
      }
    >
      {hosts.isLoading ? (
        <div className="grid gap-3" aria-busy="true">
          <span role="status" className="sr-only">
            Loading hosts
          </span>
          <Skeleton className="h-24 w-full" />
        </div>
      ) : hosts.error ? (
        <QueryError what="your hosts" error={hosts.error} onRetry={() => void hosts.refetch()} />
      ) : (
        <HostList
          hosts={hosts.data ?? []}
          renewingId={renew.isPending ? (renew.variables ?? null) : null}
          onAdd={() => setAdding(true)}
          onNewToken={(host) => void newToken(host)}
          onRemove={setRemoving}
        />
      )}
      <AddHostDialog open={adding} onOpenChange={setAdding} onCreated={setShown} />
      <EnrolmentDialog item={shown} onClose={() => setShown(null)} />
      <RemoveHostDialog item={removing} onClose={() => setRemoving(null)} />
    </Section>
  );
}
