import { WifiOff } from 'lucide-react';
import type { GpuUtilization, VmInstanceView } from '../../../../shared/contracts/kvm';
import { useFormatDate } from '../../../lib/date-format';
import { UsageBar } from './usage-bar';

/**
 * While the VM's host is unreachable (no heartbeat for 90 s): since when, that its minutes are
 * not charged, that a stop or terminate waits for the host, and that a start waits until it is
 * back (the server refuses a start meanwhile: HOST_OFFLINE).
 */
export function HostUnreachableBanner({ vm }: { vm: VmInstanceView }) {
  const formatDate = useFormatDate();
  if (vm.host_status !== 'offline') return null;
  return (
    <div
      className="flex items-start gap-2 rounded-md border border-warning-text/40 p-3 text-sm"
      role="status"
      data-testid="vm-host-unreachable"
    >
      <WifiOff className="mt-0.5 h-4 w-4 shrink-0 text-warning-text" aria-hidden />
      <p>
        <span className="font-semibold text-warning-text">Host unreachable</span>
        {vm.host_offline_since
          ? ` since ${formatDate(vm.host_offline_since, { withTime: true })}`
          : ''}
        . These minutes are not charged; a stop or terminate you send now runs when the host is
        back, and a stopped VM can be started once it is.
      </p>
    </div>
  );
}

/** One reading as a bar, or "unknown" when the host had none (nvidia-smi's "[N/A]"), never 0. */
function Reading({ label, value, unit }: { label: string; value: number | null; unit: string }) {
  if (value === null) {
    return (
      <div className="flex justify-between text-xs">
        <span className="text-muted-foreground">{label}</span>
        <span className="font-medium">unknown</span>
      </div>
    );
  }
  return <UsageBar label={label} value={value} display={`${value}${unit}`} />;
}

/** The VM's GPU readings from its host's last report, marked stale while the host is away. */
export function GpuUsage({ usage }: { usage: GpuUtilization | null }) {
  const formatDate = useFormatDate();
  if (!usage) {
    return <p className="text-xs text-muted-foreground">No GPU readings from the host yet.</p>;
  }
  const when = usage.measured_at ? ` (${formatDate(usage.measured_at, { withTime: true })})` : '';
  return (
    <div className={usage.stale ? 'grid gap-2 opacity-60' : 'grid gap-2'}>
      <Reading label="GPU Usage" value={usage.gpu_usage} unit="%" />
      <Reading label="GPU Memory" value={usage.memory_usage} unit="%" />
      <Reading label="Temperature" value={usage.temperature} unit="°C" />
      <p className="text-xs text-muted-foreground" data-testid="vm-usage-source">
        {usage.simulated
          ? 'Simulated: demo hosts run no GPU.'
          : usage.stale
            ? `Stale: the host's last report before it went dark${when}.`
            : `From the host's last report${when}.`}
      </p>
    </div>
  );
}
