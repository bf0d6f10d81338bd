import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';
import type { VmInstanceView } from '../../../../shared/contracts/kvm';
import { formatMoney } from '../../../../shared/rules/currency';
import { ENDED_STATES } from '../../../../shared/rules/instance-lifecycle';
import { Badge } from '../../../components/ui/badge';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useFormatDate } from '../../../lib/date-format';
import { vmCardHref } from '../../../lib/instance-links';
import { SOURCE_LABELS, STATUS_TONES } from '../vm-status';

function MeteredRow({ vm }: { vm: VmInstanceView }) {
  const formatDate = useFormatDate();
  return (
    <li
      className="grid grid-cols-[minmax(0,1fr)] gap-3 rounded-xl border border-border bg-card p-4 text-card-foreground shadow-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center"
      data-testid="metered-instance"
      aria-label={`${vm.gpu_type} instance ${vm.vm_id}`}
    >
      <div className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold">{vm.gpu_type}</h3>
          <Badge tone={STATUS_TONES[vm.status] ?? 'neutral'} data-testid="metered-status">
            {vm.status}
          </Badge>
          {vm.is_demo_host ? <Badge tone="neutral">Demo host</Badge> : null}
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <div className="min-w-0">
            <dt className="text-muted-foreground">Instance</dt>
            <dd>
              #{vm.vm_id} · {SOURCE_LABELS[vm.source] ?? vm.source}
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-muted-foreground">Created</dt>
            <dd>{formatDate(vm.created_at, { withTime: true })}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-muted-foreground">Cost so far</dt>
            <dd data-testid="metered-cost">{formatMoney(vm.total_cost)}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-muted-foreground">Rate</dt>
            <dd>{formatMoney(vm.hourly_rate)}/hr</dd>
          </div>
        </dl>
      </div>
      <Link
        href={vmCardHref(vm.vm_id)}
        className={buttonClasses('outline', 'sm', 'justify-self-start sm:justify-self-end')}
        aria-label={`Manage ${vm.gpu_type} instance ${vm.vm_id} on the VM Dashboard`}
      >
        Manage <ArrowRight className="h-4 w-4" aria-hidden />
      </Link>
    </li>
  );
}

/**
 * My Dashboard's list of the pay-as-you-go instances (issue 26): VMs made on the VM Dashboard,
 * Instant Deploys and API launches, charged each minute rather than booked. Those still there
 * first, then the ended; each links to its card on the VM Dashboard, where it is managed.
 */
export function MeteredInstances({
  vms,
  isLoading,
  isError,
}: {
  vms: VmInstanceView[];
  isLoading: boolean;
  isError: boolean;
}) {
  if (isLoading) return <Skeleton className="h-32" />;
  if (isError)
    return (
      <Card className="p-6 text-danger-text" role="alert">
        Could not load your pay-as-you-go instances.
      </Card>
    );
  if (vms.length === 0)
    return (
      <Card className="grid justify-items-center gap-3 p-8 text-center">
        <p className="text-muted-foreground">
          You have no pay-as-you-go instances. Create one on the VM Dashboard or with Instant
          Deploy; they are charged by the minute.
        </p>
        <div className="flex flex-wrap justify-center gap-2">
          <Link href="/vm-dashboard" className={buttonClasses('outline', 'md')}>
            VM Dashboard
          </Link>
          <Link href="/deploy" className={buttonClasses('outline', 'md')}>
            Instant Deploy
          </Link>
        </div>
      </Card>
    );
  const ended = (vm: VmInstanceView) => Number(ENDED_STATES.includes(vm.state));
  const ordered = [...vms].sort((a, b) => ended(a) - ended(b));
  return (
    <ul className="grid gap-3" aria-label="Pay-as-you-go instances">
      {ordered.map((vm) => (
        <MeteredRow key={vm.vm_id} vm={vm} />
      ))}
    </ul>
  );
}
