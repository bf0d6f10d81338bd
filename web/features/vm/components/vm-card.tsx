import { FileText, Loader2, type LucideIcon, Play, Square, Trash2 } from 'lucide-react';
import { type ComponentProps, memo, useState } from 'react';
import { Link } from 'wouter';
import type { VmInstanceView } from '../../../../shared/contracts/kvm';
import { formatMoney } from '../../../../shared/rules/currency';
import { endReasonSentence } from '../../../../shared/rules/end-reasons';
import { canAct } from '../../../../shared/rules/instance-lifecycle';
import { STORAGE_MICROS_PER_GB_HOUR } from '../../../../shared/rules/metering';
import { VM_TEMPLATE_LABELS } from '../../../../shared/vm-options';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { useFormatDate } from '../../../lib/date-format';
import { KIND_LABELS } from '../../../lib/instance-kinds';
import { vmCardId } from '../../../lib/instance-links';
import { WebConsoleLink } from '../../../lib/web-console-link';
import { useStartVm } from '../api/start-vm';
import { useStopVm } from '../api/stop-vm';
import { useTerminateVm } from '../api/terminate-vm';
import { uptime } from '../uptime';
import { STATUS_TONES } from '../vm-status';
import { ContainerImage } from './container-image';
import { GpuUsage, HostUnreachableBanner } from './gpu-usage';
import { VmDeadlines } from './vm-deadlines';
import { VmIdleStop } from './vm-idle-stop';

/** What the lifecycle state adds to the status, when they differ (creating is provisioning). */
const STATE_NOTES: Partial<Record<VmInstanceView['state'], string>> = {
  provisioning: 'provisioning',
};

/** While a host moves it, what the renter waits for (docs/decisions/018: no action is queued). */
const WAITING: Partial<Record<VmInstanceView['state'], string>> = {
  stopping: 'Stopping: Start is offered once it has stopped.',
  starting: 'Starting: Stop is offered once it runs.',
  terminating: 'Terminating: its disk is being deleted.',
};

/** The card's own sentences for the system's reasons; every other code in words (end-reasons.ts). */
const END_REASONS: Record<string, string> = {
  insufficient_credits: 'Stopped: your credits ran out.',
  host_failed: 'Its host failed or went dark.',
  provisioning_timeout: 'Its host did not start it in time.',
  deadline_stop: 'Stopped at the time you set.',
  deadline_terminate: 'Terminated at the time you set.',
  spend_cap: 'Stopped: a spending cap you set was reached.',
  idle_stop:
    'Stopped: it was idle (its GPU under your threshold, no SSH session and no web console). Its disk is kept.',
};

/** Start or Stop: its icon, a spinner while its request runs. */
function PowerButton({
  icon: Icon,
  action,
  children,
  ...props
}: ComponentProps<typeof Button> & { icon: LucideIcon; action: { isPending: boolean } }) {
  return (
    <Button size="sm" {...props}>
      {action.isPending ? (
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
      ) : (
        <Icon className="h-4 w-4" aria-hidden />
      )}
      {children}
    </Button>
  );
}

/**
 * One instance. Memoised: a poll that brings the same instance (TanStack Query keeps the
 * unchanged object) and the Refresh button's spinning leave the card as it was; it renders
 * again when its instance or the 30-second clock changes.
 */
export const VmCard = memo(function VmCard({ vm, now }: { vm: VmInstanceView; now: number }) {
  const [confirming, setConfirming] = useState(false);
  const start = useStartVm();
  const stop = useStopVm();
  const terminate = useTerminateVm();
  const formatDate = useFormatDate();
  const busy = start.isPending || stop.isPending || terminate.isPending;
  const connection = vm.status === 'running' ? vm.connection_info : null;
  const usage = connection?.gpu_utilization ?? null;
  const note = STATE_NOTES[vm.state];
  const endNote = vm.end_reason
    ? (END_REASONS[vm.end_reason] ?? `${endReasonSentence(vm.end_reason)}.`)
    : undefined;
  const waiting = WAITING[vm.state];
  const container = vm.kind === 'container';

  async function run(
    action: () => Promise<{ message?: string | null }>,
    success: { title: string; description: string },
    failure: string,
  ) {
    try {
      const answer = await action();
      // While the host is unreachable the server says the action waits for it.
      toast(answer.message ? { ...success, description: answer.message } : success);
      return true;
    } catch (error) {
      toastFailure(failure, error, failure);
      return false;
    }
  }

  const details: [string, string][] = [
    ['ID', String(vm.vm_id)],
    ['Created', formatDate(vm.created_at, { withTime: true })],
    ['Total Cost', formatMoney(vm.total_cost)],
    ['Hourly Rate', `${formatMoney(vm.hourly_rate)}/hr`],
    ['GPU', `${vm.gpu_type} (${vm.gpu_memory}GB)`],
    ['CPU Cores', String(vm.cpu_cores)],
    ['RAM', `${vm.ram_gb} GB`],
    ['Uptime', uptime(vm.started_at, now, vm.ran_minutes)],
  ];

  return (
    <Card
      className="grid scroll-mt-20 grid-cols-[minmax(0,1fr)] gap-4 p-5 outline-none focus:ring-2 focus:ring-primary"
      role="group"
      aria-label={`${vm.gpu_type} instance ${vm.vm_id}`}
      data-testid="vm-card"
      // My Dashboard and the create confirmation link here (vm-status.ts vmCardHref).
      id={vmCardId(vm.vm_id)}
      tabIndex={-1}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold">{vm.gpu_type}</h3>
          <p className="text-sm text-muted-foreground">
            <span data-testid="vm-kind">{KIND_LABELS[vm.kind] ?? KIND_LABELS.vm}</span>
            {' · '}
            {container
              ? null
              : `${
                  vm.template
                    ? (VM_TEMPLATE_LABELS[vm.template as keyof typeof VM_TEMPLATE_LABELS] ??
                      vm.template)
                    : 'Custom image'
                } · `}
            {vm.disk_gb} GB disk
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {vm.is_demo_host ? <Badge tone="neutral">Demo host</Badge> : null}
          <Badge tone={STATUS_TONES[vm.status] ?? 'neutral'} data-testid="vm-status">
            {vm.status}
          </Badge>
          {note ? (
            <span className="text-xs text-muted-foreground" data-testid="vm-state">
              ({note})
            </span>
          ) : null}
        </div>
      </div>
      <HostUnreachableBanner vm={vm} />
      {vm.provisioning_step ? (
        <p
          className="text-sm text-muted-foreground"
          role="status"
          aria-live="polite"
          data-testid="vm-provisioning-step"
        >
          Step: {vm.provisioning_step}
        </p>
      ) : null}

      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        {details.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-muted-foreground">{label}</dt>
            <dd
              className="font-medium break-words"
              data-testid={`vm-${label.toLowerCase().replace(/\s+/g, '-')}`}
            >
              {value}
              {/* Compute is billed from ready (ADR 026): until then the cost says it is not. */}
              {label === 'Total Cost' && vm.compute_charge_note ? (
                <span
                  className="block text-xs font-normal text-muted-foreground"
                  data-testid="vm-charge-note"
                >
                  {vm.compute_charge_note}
                </span>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
      {container ? <ContainerImage image={vm.image} digest={vm.image_digest} /> : null}
      {endNote ? <p className="text-sm text-warning-text">{endNote}</p> : null}
      {vm.status === 'stopped' ? <StorageStillCharged diskGb={vm.disk_gb} /> : null}
      {waiting ? (
        <p className="text-sm text-muted-foreground" data-testid="vm-waiting">
          {waiting}
        </p>
      ) : null}
      <VmDeadlines vm={vm} />
      <VmIdleStop vm={vm} />
      {vm.failure_reason ? (
        <p className="text-sm text-warning-text break-words" data-testid="vm-failure-reason">
          Reason: {vm.failure_reason}
        </p>
      ) : null}

      {connection ? (
        <section
          className="grid grid-cols-[minmax(0,1fr)] gap-3 rounded-lg border border-border p-3"
          aria-label="Connection info"
        >
          <div className="grid grid-cols-[minmax(0,1fr)] gap-1">
            <span className="text-xs text-muted-foreground">SSH</span>
            <div className="flex items-center gap-2">
              <code
                className="min-w-0 flex-1 rounded bg-muted px-2 py-1 text-xs break-all"
                data-testid="vm-ssh"
              >
                {connection.ssh_command}
              </code>
              <CopyButton value={connection.ssh_command} label="SSH command" />
            </div>
            {connection.ssh_host_key_fingerprint ? (
              <p className="text-xs text-muted-foreground" data-testid="vm-host-key">
                Host key{' '}
                <code className="break-all text-foreground">
                  {connection.ssh_host_key_fingerprint}
                </code>
              </p>
            ) : null}
          </div>
          {/* A container has no display: no VNC row at all. A VM says why it has none. */}
          {connection.vnc_url || !container ? (
            <div className="grid grid-cols-[minmax(0,1fr)] gap-1">
              <span className="text-xs text-muted-foreground">VNC Console</span>
              {connection.vnc_url ? (
                <code className="rounded bg-muted px-2 py-1 text-xs break-all" data-testid="vm-vnc">
                  {connection.vnc_url}
                </code>
              ) : (
                <span className="text-sm text-muted-foreground" data-testid="vm-vnc">
                  Not offered by this host{vm.is_demo_host ? ' (demo hosts have no display)' : ''}.
                </span>
              )}
            </div>
          ) : null}
          <WebConsoleLink href={connection.web_console} />
          <section className="grid grid-cols-[minmax(0,1fr)] gap-2" aria-label="GPU usage">
            <GpuUsage usage={usage} />
          </section>
        </section>
      ) : null}

      <div className="flex flex-wrap gap-2">
        {vm.status === 'stopped' && canAct(vm.state, 'start') ? (
          <PowerButton
            icon={Play}
            action={start}
            disabled={busy}
            onClick={() =>
              run(
                () => start.mutateAsync(vm.vm_id),
                { title: 'VM Started', description: 'Your instance is starting up.' },
                'Failed to Start VM',
              )
            }
          >
            Start
          </PowerButton>
        ) : null}
        {vm.status === 'running' && canAct(vm.state, 'stop') ? (
          <PowerButton
            icon={Square}
            action={stop}
            variant="secondary"
            disabled={busy}
            onClick={() =>
              run(
                () => stop.mutateAsync(vm.vm_id),
                { title: 'VM Stopped', description: 'Your instance has been stopped.' },
                'Failed to Stop VM',
              )
            }
          >
            Stop
          </PowerButton>
        ) : null}
        <Button
          size="sm"
          variant="danger"
          disabled={busy || !canAct(vm.state, 'terminate')}
          title={canAct(vm.state, 'terminate') ? undefined : 'This instance has ended.'}
          onClick={() => setConfirming(true)}
        >
          <Trash2 className="h-4 w-4" aria-hidden />
          Terminate
        </Button>
        <Link href={`/invoices/${vm.vm_id}`} className={buttonClasses('ghost', 'sm')}>
          <FileText className="h-4 w-4" aria-hidden />
          Invoice<span className="sr-only"> of instance #{vm.vm_id}</span>
        </Link>
      </div>

      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Terminate instance"
        description="Are you sure? This will permanently delete the instance."
        onCancel={() => setConfirming(false)}
        footer={
          <Button
            variant="danger"
            disabled={terminate.isPending}
            onClick={async () => {
              // Like a confirm(): once answered, the question is gone, whatever the outcome.
              await run(
                () => terminate.mutateAsync(vm.vm_id),
                {
                  title: 'VM Terminated',
                  description: 'Your instance has been permanently terminated.',
                },
                'Failed to Terminate VM',
              );
              setConfirming(false);
            }}
          >
            {terminate.isPending ? 'Terminating...' : 'Terminate'}
          </Button>
        }
      >
        <p className="text-sm text-muted-foreground">
          Instance {vm.vm_id} ({vm.gpu_type}) and its {vm.disk_gb} GB disk are deleted; charges
          stop.
        </p>
      </Dialog>
    </Card>
  );
});

/**
 * A stopped instance keeps its disk, and its disk is charged until it is terminated
 * (shared/rules/metering.ts: storage for as long as the instance exists).
 */
function StorageStillCharged({ diskGb }: { diskGb: number }) {
  const hourly = Number(BigInt(diskGb) * STORAGE_MICROS_PER_GB_HOUR) / 1_000_000;
  return (
    <p className="text-sm text-muted-foreground" data-testid="vm-storage-note">
      Stopped: compute is not charged, its {diskGb} GB disk still is ({formatMoney(hourly)}/hr)
      until you terminate it.
    </p>
  );
}
