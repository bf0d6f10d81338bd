import { provisioningProgress, provisioningStepText } from '../../../../shared/contracts/images';
import type { Instance } from '../../../db/schema';

/**
 * The step a provisioning or starting instance is at, in renters' words ("downloading image
 * (42%)", shared/contracts/images.ts), from its host's last progress; null in any other state
 * or before the host said anything.
 */
export function provisioningStepOf(
  instance: Pick<Instance, 'status' | 'provisioningProgress'>,
): string | null {
  if (instance.status !== 'provisioning' && instance.status !== 'starting') return null;
  const progress = provisioningProgress.safeParse(instance.provisioningProgress);
  return progress.success ? provisioningStepText(progress.data) : null;
}
