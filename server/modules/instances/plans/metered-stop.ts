import { holdsUnit, stateAfter } from '../../../../shared/rules/instance-lifecycle';
import type { Tx } from '../../../db/client';
import { listingsService } from '../../listings/service';
import { instancesRepo } from '../repo';
import type { Instance } from '../repo-rows';
import { stateOf } from '../states';
import type { EndReason } from '../types';

/** Stops a metered instance: its unit back; the disk and the paid minutes stay. */
export async function stopMetered(
  tx: Tx,
  instance: Instance,
  now: Date,
  reason: EndReason | null,
): Promise<Instance> {
  const state = stateOf(instance);
  if (holdsUnit(state)) await listingsService.releaseUnit(tx, instance.gpuListingId);
  const moved = await instancesRepo.transition(
    tx,
    instance.id,
    [state],
    stateAfter('stop', instance.hostId !== null),
    now,
    { endReason: reason },
  );
  if (!moved) throw new Error(`instance ${instance.id} changed under its lock`);
  return moved;
}
