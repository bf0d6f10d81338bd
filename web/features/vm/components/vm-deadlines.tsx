import { Clock, X } from 'lucide-react';
import { useId, useState } from 'react';
import type { VmInstanceView } from '../../../../shared/contracts/kvm';
import type { DeadlineKind } from '../../../../shared/rules/deadlines';
import { countdown, deadlineOvertaken } from '../../../../shared/rules/deadlines';
import { canAct } from '../../../../shared/rules/instance-lifecycle';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/field';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { useFormatDate } from '../../../lib/date-format';
import { useNow } from '../../../lib/use-now';
import { useSetVmDeadlines } from '../api/set-vm-deadlines';
import { DEADLINE_CHOICES, deadlineFrom } from '../deadline-choices';

const WORDS: Record<
  DeadlineKind,
  { field: 'stop_at' | 'terminate_at'; shown: string; due: string }
> = {
  stop: { field: 'stop_at', shown: 'Stops in', due: 'Stopping' },
  terminate: { field: 'terminate_at', shown: 'Terminates in', due: 'Terminating' },
};

/**
 * A VM card's deadlines (issue 23, part 5): a countdown to each "stop at" and "terminate at"
 * (the worker acts within a minute of it), a way to clear one, and a way to set one while
 * the instance has not ended.
 */
export function VmDeadlines({ vm }: { vm: VmInstanceView }) {
  const id = useId();
  const now = useNow(1_000);
  const formatDate = useFormatDate();
  const save = useSetVmDeadlines();
  const [kind, setKind] = useState<DeadlineKind>('stop');
  const [after, setAfter] = useState(DEADLINE_CHOICES[1]?.value ?? '2h');
  const live = canAct(vm.state, 'terminate');
  const set = (Object.keys(WORDS) as DeadlineKind[]).filter((k) => vm[WORDS[k].field] !== null);
  if (!live && set.length === 0) return null;

  async function change(body: { stop_at?: string | null; terminate_at?: string | null }) {
    try {
      await save.mutateAsync({ id: vm.vm_id, body });
      toast({ title: 'Schedule Updated', description: 'Your instance schedule has been saved.' });
    } catch (error) {
      toastFailure('Failed to Update Schedule', error, 'The schedule could not be saved.');
    }
  }

  return (
    <section className="grid gap-2 text-sm" aria-label="Schedule">
      {set.map((k) => {
        const at = vm[WORDS[k].field] ?? '';
        const left = countdown(at, now);
        // Once the instance is stopping (or terminating) itself, the clock no longer counts.
        const overtaken = deadlineOvertaken(k, vm.state);
        return (
          <p key={k} className="flex flex-wrap items-center gap-2" data-testid={`vm-${k}-at`}>
            <Clock className="h-4 w-4 text-muted-foreground" aria-hidden />
            {overtaken ? (
              <span>
                {overtaken}{' '}
                <span className="text-muted-foreground">
                  ({formatDate(at, { withTime: true })})
                </span>
              </span>
            ) : (
              <span>
                {left === 'now' ? WORDS[k].due : WORDS[k].shown}{' '}
                <span className="font-medium tabular-nums" data-testid={`vm-${k}-countdown`}>
                  {left}
                </span>{' '}
                <span className="text-muted-foreground">
                  ({formatDate(at, { withTime: true })})
                </span>
              </span>
            )}
            <Button
              size="sm"
              variant="ghost"
              disabled={save.isPending}
              aria-label={k === 'stop' ? 'Clear stop time' : 'Clear terminate time'}
              onClick={() => change({ [WORDS[k].field]: null })}
            >
              <X className="h-4 w-4" aria-hidden />
            </Button>
          </p>
        );
      })}
      {live ? (
        <div className="flex flex-wrap items-center gap-2">
          <Select
            id={`${id}-kind`}
            aria-label="Scheduled action"
            className="h-9 w-auto"
            value={kind}
            onChange={(e) => setKind(e.target.value as DeadlineKind)}
          >
            <option value="stop">Stop after</option>
            <option value="terminate">Terminate after</option>
          </Select>
          <Select
            id={`${id}-after`}
            aria-label="After"
            className="h-9 w-auto"
            value={after}
            onChange={(e) => setAfter(e.target.value)}
            options={DEADLINE_CHOICES}
          />
          <Button
            size="sm"
            variant="outline"
            disabled={save.isPending}
            onClick={() => change({ [WORDS[kind].field]: deadlineFrom(after, Date.now()) ?? null })}
          >
            Schedule
          </Button>
        </div>
      ) : null}
    </section>
  );
}
