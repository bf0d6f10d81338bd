import type { DesiredInstance, InstanceReportState } from '../shared/contracts/agent-protocol';
import {
  type CatalogueImage,
  fetchedPercent,
  type ProvisioningProgress,
} from '../shared/contracts/images';
import type { ImageInventory } from './driver';
import type { InstanceReports } from './instance-reports';

/** A downloading instance's progress is reported at most this often, or every 10 points. */
const PROGRESS_REPORT_MS = 5000;
const PROGRESS_REPORT_POINTS = 10;

/**
 * The instance's image, fetched into the cache when the host lacks it: the renter sees
 * "downloading image (N%)" move (the heartbeat's status at every step, a report every 10
 * points or 5 s), then "booting". A failure fails this generation's boot with the reason.
 */
export async function fetchImageFor(
  d: DesiredInstance,
  state: InstanceReportState,
  entry: CatalogueImage | undefined,
  images: ImageInventory,
  reports: InstanceReports,
  signal: AbortSignal,
): Promise<string> {
  if (!entry) throw new Error(`image ${d.image} is not in the catalogue`);
  // The provisioning/starting transition said "downloading (0%)" a moment ago.
  let reportedPercent = 0;
  let reportedAt = Date.now();
  let reporting: Promise<void> = Promise.resolve();
  const ensuring = images.ensure(
    entry,
    (p) => {
      const percent = fetchedPercent(p);
      const progress: ProvisioningProgress = { step: 'downloading-image', percent };
      reports.showProgress(d, progress);
      const due =
        percent === 100 ||
        percent >= reportedPercent + PROGRESS_REPORT_POINTS ||
        Date.now() - reportedAt >= PROGRESS_REPORT_MS;
      if (!due || percent === reportedPercent) return;
      reportedPercent = percent;
      reportedAt = Date.now();
      reporting = reporting.then(() => reports.transition(d, state, null, null, progress));
    },
    signal,
  );
  // A progress report still on its way must not land after the failed or booting one.
  const file = await ensuring.finally(() => reporting);
  await reports.transition(d, state, null, null, { step: 'booting', percent: null });
  return file;
}
