import { gpuModelInfo } from '../../../../shared/gpu-models';
import { LISTING_DEFAULTS, MEMORY_OPTIONS } from '../../../../shared/listing-options';
import { LISTING_TEXT } from '../../../../shared/listing-text';
import { dailyRate } from '../../../../shared/rules/pricing';
import type { CreateListingPayload } from '../api/create-listing';

/** What the Add New GPU Listing form holds: text as typed, checked on submit. */
export interface ListingFormValues {
  model: string;
  memory: string;
  cudaCores: string;
  location: string;
  bandwidth: string;
  hourlyRate: string;
  availableCount: string;
  pcieLanes: string;
  powerConsumption: string;
  cooling: string;
  additionalSpecs: string;
  /** One of the provider's hosts, '' for none. */
  hostId: string;
}

export function initialListingForm(): ListingFormValues {
  return {
    model: '',
    memory: '',
    cudaCores: '',
    location: '',
    bandwidth: LISTING_DEFAULTS.bandwidth,
    hourlyRate: '',
    availableCount: String(LISTING_DEFAULTS.availableCount),
    pcieLanes: LISTING_DEFAULTS.pcieLanes,
    cooling: LISTING_DEFAULTS.cooling,
    powerConsumption: '',
    additionalSpecs: '',
    hostId: '',
  };
}

/**
 * Choosing a model fills in what we know about it: its memory (a listing sells the catalogue's
 * GPU as it is, so the memory always follows), and its CUDA cores and power draw where the
 * provider has not typed their own (empty, or still the previous model's figures).
 */
export function withModel(values: ListingFormValues, model: string): ListingFormValues {
  const info = gpuModelInfo(model);
  if (!info) return { ...values, model };
  const before = gpuModelInfo(values.model);
  const untouched = (typed: string, previous: string | undefined) =>
    typed === '' || typed === previous;
  const memoryKnown = (MEMORY_OPTIONS as readonly string[]).includes(info.memory);
  return {
    ...values,
    model,
    memory: memoryKnown ? info.memory : values.memory,
    cudaCores: untouched(values.cudaCores, before && String(before.cudaCores))
      ? String(info.cudaCores)
      : values.cudaCores,
    powerConsumption: untouched(values.powerConsumption, before && `${before.powerWatts}W`)
      ? `${info.powerWatts}W`
      : values.powerConsumption,
  };
}

/** Model, memory, location and hourly rate are required: a message for each one missing. */
export function missingFields(values: ListingFormValues): Record<string, string> {
  const missing: Record<string, string> = {};
  if (!values.model) missing.model = LISTING_TEXT.fields.model;
  if (!values.memory) missing.memory = LISTING_TEXT.fields.memory;
  if (!values.location.trim()) missing.location = LISTING_TEXT.fields.location;
  if (!values.hourlyRate.trim()) missing.hourlyRate = LISTING_TEXT.fields.hourlyRate;
  return missing;
}

/** Model, memory, location and hourly rate are required (listing-form.test.ts). */
export function hasRequiredFields(values: ListingFormValues): boolean {
  return Object.keys(missingFields(values)).length === 0;
}

/** The hourly rate as a number, or null while it is not a positive amount. */
export function parseHourlyRate(text: string): number | null {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) && value > 0 ? value : null;
}

/** At least 1; anything unreadable counts as the default 1. */
export function parseAvailableCount(text: string): number {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value >= 1 ? value : LISTING_DEFAULTS.availableCount;
}

/** CUDA cores are optional: anything but a positive whole number is sent as null. */
function parseCudaCores(text: string): number | null {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The POST /api/gpu-listings body; the server re-derives the daily rate and total count. */
export function toCreateListingPayload(
  values: ListingFormValues,
  providerId: number,
): CreateListingPayload {
  const hourly = values.hourlyRate.trim();
  const count = parseAvailableCount(values.availableCount);
  const rate = parseHourlyRate(hourly);
  return {
    providerId,
    model: values.model,
    memory: values.memory,
    cudaCores: parseCudaCores(values.cudaCores),
    location: values.location.trim(),
    bandwidth: values.bandwidth,
    hourlyRate: hourly,
    dailyRate: rate === null ? '0.00' : dailyRate(rate).toFixed(2),
    status: 'available',
    availableCount: count,
    totalCount: count,
    specifications: JSON.stringify({
      bandwidth: values.bandwidth,
      pcieLanes: values.pcieLanes,
      powerConsumption: values.powerConsumption.trim(),
      cooling: values.cooling,
      additionalSpecs: values.additionalSpecs.trim(),
    }),
    ...(values.hostId ? { hostId: values.hostId } : {}),
  };
}
