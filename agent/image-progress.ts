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
  const progress = progressReporter(d, state, reports);
  const ensuring = images.ensure(
    entry,
    (p) => progress.show({ step: 'downloading-image', percent: fetchedPercent(p) }),
    signal,
  );
  // A progress report still on its way must not land after the failed or booting one.
  const file = await ensuring.finally(() => progress.settled());
  await reports.transition(d, state, null, null, { step: 'booting', percent: null });
  return file;
}

/**
 * A boot's progress as the renter sees it: every step in the heartbeat's status at once; a
 * report when the step changes, every 10 points or 5 s of a download, and at 100%. The
 * provisioning/starting transition has just said "downloading (0%)" or "booting".
 */
export function progressReporter(
  d: DesiredInstance,
  state: InstanceReportState,
  reports: InstanceReports,
  /** What the last transition said. */
  initial: ProvisioningProgress = { step: 'downloading-image', percent: 0 },
): { show(progress: ProvisioningProgress): void; settled(): Promise<void> } {
  let reported = initial;
  let reportedAt = Date.now();
  let reporting: Promise<void> = Promise.resolve();
  return {
    show(progress) {
      reports.showProgress(d, progress);
      const percent = progress.percent ?? 0;
      const last = reported.percent ?? 0;
      const due =
        progress.step !== reported.step ||
        percent === 100 ||
        percent >= last + PROGRESS_REPORT_POINTS ||
        Date.now() - reportedAt >= PROGRESS_REPORT_MS;
      if (!due || (progress.step === reported.step && percent === last)) return;
      reported = progress;
      reportedAt = Date.now();
      reporting = reporting.then(() => reports.transition(d, state, null, null, progress));
    },
    settled: () => reporting,
  };
}
