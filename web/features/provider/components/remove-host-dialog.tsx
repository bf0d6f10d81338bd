import { useState } from 'react';
import type { HostView } from '../../../../shared/contracts/hosts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast-store';
import { serverMessage } from '../../../lib/api-client';
import { useRemoveHost } from '../api/remove-host';

const FALLBACK = 'Failed to remove the host. Please try again.';

/** Asks before removing; the server refuses while listings or instances use it. */
export function RemoveHostDialog({
  host,
  onClose,
}: {
  host: HostView | null;
  onClose: () => void;
}) {
  const removeHost = useRemoveHost();
  const [error, setError] = useState<string | null>(null);

  function close() {
    setError(null);
    removeHost.reset();
    onClose();
  }

  async function confirm() {
    if (!host) return;
    setError(null);
    try {
      await removeHost.mutateAsync(host.id);
      toast({ title: 'Host Removed', description: `${host.name} is no longer connected.` });
      close();
    } catch (failure) {
      const message = serverMessage(failure, FALLBACK);
      setError(message);
      toast({ title: 'Failed to Remove Host', description: message, variant: 'destructive' });
    }
  }

  return (
    <Dialog
      open={host !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title="Remove Host"
      description={
        host
          ? `Remove ${host.name}? Its agent is disconnected at once and can no longer enrol; to connect the machine again, add it as a new host.`
          : ''
      }
      footer={
        <>
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={removeHost.isPending}>
            {removeHost.isPending ? 'Removing...' : 'Remove Host'}
          </Button>
        </>
      }
    >
      {host && (host.listings > 0 || host.liveInstances > 0) && !error ? (
        <p className="rounded-md bg-muted p-3 text-sm text-warning-text">
          {host.listings} listing{host.listings === 1 ? '' : 's'} and {host.liveInstances} running
          instance{host.liveInstances === 1 ? '' : 's'} use this host. A host can only be removed
          once no listing uses it and its instances have ended.
        </p>
      ) : null}
      {error ? (
        <p
          role="alert"
          className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm text-danger-text"
        >
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
