import { Moon } from 'lucide-react';
import { useId, useState } from 'react';
import type { VmInstanceView } from '../../../../shared/contracts/kvm';
import { countdown } from '../../../../shared/rules/deadlines';
import { IDLE_STOP_CHOICES, idleStopLabel } from '../../../../shared/rules/idle-stop';
import { canAct } from '../../../../shared/rules/instance-lifecycle';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/field';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { useFormatDate } from '../../../lib/date-format';
import { useNow } from '../../../lib/use-now';
import { useSetVmDeadlines } from '../api/set-vm-deadlines';

/**
 * A VM card's idle stop (issue 23, part 4; docs/decisions/019): what is set, the warning once
 * it is idle (it is stopped 10 minutes later unless its GPU is used or someone logs in over SSH or the web console),
 * and a way to change it while the instance has not ended. On a demo host the GPU figures are
 * simulated, and the card says so.
 */
export function VmIdleStop({ vm }: { vm: VmInstanceView }) {
  const id = useId();
  const now = useNow(1_000);
  const formatDate = useFormatDate();
  const save = useSetVmDeadlines();
  const [minutes, setMinutes] = useState(String(vm.idle_stop_minutes));
  if (!canAct(vm.state, 'terminate')) return null;
  const warnedStopAt = vm.idle_warned_at ? vm.idle_stop_at : null;

  async function change() {
    try {
      await save.mutateAsync({ id: vm.vm_id, body: { idle_stop_minutes: Number(minutes) } });
      toast({ title: 'Idle Stop Updated', description: 'Your idle-stop setting has been saved.' });
    } catch (error) {
      toastFailure(
        'Failed to Update Idle Stop',
        error,
        'The idle-stop setting could not be saved.',
      );
    }
  }

  return (
    <section className="grid gap-2 text-sm" aria-label="Idle stop">
      {warnedStopAt ? (
        <p
          role="status"
          className="rounded-md border border-warning-text/40 p-2 text-warning-text"
          data-testid="vm-idle-warning"
        >
          Idle: this instance will be stopped in {countdown(warnedStopAt, now)} (
          {formatDate(warnedStopAt, { withTime: true })}) unless its GPU is used or someone logs in
          over SSH or the web console. Its disk is kept.
        </p>
      ) : null}
      <p className="flex flex-wrap items-center gap-2" data-testid="vm-idle-stop">
        <Moon className="h-4 w-4 text-muted-foreground" aria-hidden />
        <span>
          Idle stop: {idleStopLabel(vm.idle_stop_minutes, vm.idle_threshold_percent)}
          {vm.is_demo_host && vm.idle_stop_minutes > 0 ? (
            <span className="text-muted-foreground"> (GPU use is simulated on a demo host)</span>
          ) : null}
        </span>
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Select
          id={`${id}-idle`}
          aria-label="Idle stop"
          className="h-9 w-auto"
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
          options={IDLE_STOP_CHOICES}
        />
        <Button size="sm" variant="outline" disabled={save.isPending} onClick={change}>
          Apply
        </Button>
      </div>
    </section>
  );
}
