import type { InstanceKind } from '../../../shared/instance-kinds';

/**
 * Create Instance in the address (issue 42): Add Credits comes back to
 * /vm-dashboard?create=<the form's choices as JSON>, and the dashboard opens the form again
 * with them. Only known fields of short text are read back; the form checks them as typed.
 */
export interface CreateVmDraft {
  gpu: string;
  listing: string;
  kind: InstanceKind;
  image: string;
  template: string;
  /** CPU and RAM only when typed (else they follow the chosen host's share). */
  cpu?: string;
  ram?: string;
  disk: string;
  stop: string;
  terminate: string;
  idle: string;
}

const CREATE_PARAM = 'create';
const FIELDS = [
  'gpu',
  'listing',
  'kind',
  'image',
  'template',
  'cpu',
  'ram',
  'disk',
  'stop',
  'terminate',
  'idle',
] as const;
const FIELD_MAX = 200;

/** The dashboard with the form open on these choices (what Add Credits comes back to). */
export const draftPath = (draft: CreateVmDraft): string =>
  `/vm-dashboard?${new URLSearchParams({ [CREATE_PARAM]: JSON.stringify(draft) })}`;

/** The form's choices asked for by the address, or null. */
export function draftInAddress(search: string): Partial<CreateVmDraft> | null {
  const raw = new URLSearchParams(search).get(CREATE_PARAM);
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const draft: Record<string, string> = {};
  for (const field of FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (typeof value === 'string' && value.length <= FIELD_MAX) draft[field] = value;
  }
  if (draft.kind !== undefined && draft.kind !== 'vm' && draft.kind !== 'container')
    delete draft.kind;
  return draft as Partial<CreateVmDraft>;
}
