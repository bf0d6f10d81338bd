import type { HostView } from '../../../../shared/contracts/hosts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import type { ItemDialogProps } from '../../../components/ui/dialog';
import { useRemoveHost } from '../api/remove-host';

/** Asks before removing; the server refuses while listings or instances use it. */
export function RemoveHostDialog({ item: host, onClose }: ItemDialogProps<HostView>) {
  const removeHost = useRemoveHost();
  return (
    <ConfirmDialog
      item={host}
      onClose={onClose}
      title="Remove Host"
      description={
        host
          ? `Remove ${host.name}? Its agent is disconnected at once and can no longer enrol; to connect the machine again, add it as a new host.`
          : ''
      }
      confirmLabel="Remove Host"
      pendingLabel="Removing..."
      action={removeHost}
      success={(item) => ({
        title: 'Host Removed',
        description: `${item.name} is no longer connected.`,
      })}
      failureTitle="Failed to Remove Host"
      fallback="Failed to remove the host. Please try again."
      keepsRefusal
    >
      {host && (host.listings > 0 || host.liveInstances > 0) ? (
        <p className="rounded-md bg-muted p-3 text-sm text-warning-text">
          {host.listings} listing{host.listings === 1 ? '' : 's'} and {host.liveInstances} running
          instance{host.liveInstances === 1 ? '' : 's'} use this host. A host can only be removed
          once no listing uses it and its instances have ended.
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
