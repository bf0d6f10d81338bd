import type { GpuListingView } from '../../../../shared/contracts/listings';
import { type Currency, formatMoney } from '../../../../shared/rules/currency';
import { type Better, bestPositions } from '../../../../shared/rules/listing-compare';
import { availabilityLabel } from '../../../../shared/rules/pricing';
import { KIND_LABELS, offeredKinds } from '../../../lib/instance-kinds';
import {
  driverWords,
  HOST_STATUS_LABELS,
  listingFacts,
  reliabilityLabel,
  reliabilityPercent,
} from './listing-facts';

/** One row of the compare view: its label, each listing's value in words, and the best. */
export interface CompareRow {
  label: string;
  cells: string[];
  /** Positions of the best values; the words say why they are best ("Lowest", "Most"). */
  best: number[];
  bestWord: string;
}

interface RowSpec {
  label: string;
  text: (listing: GpuListingView) => string;
  /** The figure to rank by, and which way is better; absent: a row not ranked. */
  rank?: { value: (listing: GpuListingView) => number | null; better: Better; word: string };
}

const UNKNOWN = 'Not reported';

function rowSpecs(currency: Currency): RowSpec[] {
  const facts = listingFacts;
  return [
    {
      label: 'Price per hour',
      text: (l) => `${formatMoney(l.hourlyRate, currency)}/hr`,
      rank: { value: (l) => facts(l).pricePerHour, better: 'lower', word: 'Lowest' },
    },
    {
      label: 'Price per GPU-hour',
      text: (l) => `${formatMoney(l.pricePerGpuHour, currency)}/GPU-hr`,
      rank: { value: (l) => facts(l).pricePerGpuHour, better: 'lower', word: 'Lowest' },
    },
    { label: 'GPUs', text: (l) => String(l.gpuCount) },
    {
      label: 'VRAM per GPU',
      text: (l) => `${l.gpuMemoryGb} GB`,
      rank: { value: (l) => l.gpuMemoryGb, better: 'higher', word: 'Most' },
    },
    {
      label: 'vCPUs per GPU',
      text: (l) => (l.gpuShare ? String(l.gpuShare.vcpus) : UNKNOWN),
      rank: { value: (l) => l.gpuShare?.vcpus ?? null, better: 'higher', word: 'Most' },
    },
    {
      label: 'RAM per GPU',
      text: (l) => (l.gpuShare ? `${l.gpuShare.memoryGb} GB` : UNKNOWN),
      rank: { value: (l) => l.gpuShare?.memoryGb ?? null, better: 'higher', word: 'Most' },
    },
    {
      label: 'Disk',
      text: (l) => (l.diskGb !== null ? `${l.diskGb} GB` : UNKNOWN),
      rank: { value: (l) => l.diskGb, better: 'higher', word: 'Most' },
    },
    {
      label: 'Reliability',
      text: (l) => reliabilityLabel(facts(l).reliability),
      rank: {
        value: (l) => reliabilityPercent(facts(l).reliability),
        better: 'higher',
        word: 'Highest',
      },
    },
    { label: 'Driver and CUDA', text: (l) => driverWords(facts(l)) ?? UNKNOWN },
    { label: 'Location', text: (l) => l.location },
    { label: 'Provider', text: (l) => l.provider.companyName },
    { label: 'Host status', text: (l) => HOST_STATUS_LABELS[l.hostStatus] },
    {
      label: 'Kinds',
      text: (l) =>
        offeredKinds(l.kinds)
          .map((k) => KIND_LABELS[k])
          .join(', ') || 'None yet',
    },
    { label: 'Availability', text: (l) => availabilityLabel(l) },
  ];
}

/** The compare view's rows for some listings, in the order of the listings. */
export function compareRows(listings: readonly GpuListingView[], currency: Currency): CompareRow[] {
  return rowSpecs(currency).map((spec) => ({
    label: spec.label,
    cells: listings.map(spec.text),
    best: spec.rank ? bestPositions(listings.map(spec.rank.value), spec.rank.better) : [],
    bestWord: spec.rank?.word ?? '',
  }));
}
