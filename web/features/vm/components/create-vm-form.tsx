import { type FormEvent, useState } from 'react';
import type {
  CreateVmBody,
  GpuOffering,
  VmListingChoice,
  VmTemplateOption,
} from '../../../../shared/contracts/kvm';
import type { InstanceKind } from '../../../../shared/instance-kinds';
import { chargeDollars, firstHourCharge } from '../../../../shared/rules/balance-guard';
import { formatMoney } from '../../../../shared/rules/currency';
import {
  type GpuShareShown,
  shapeBeyondShare,
  shareLabel,
} from '../../../../shared/rules/gpu-share';
import { IDLE_STOP_CHOICES } from '../../../../shared/rules/idle-stop';
import { dollarsToMicros } from '../../../../shared/rules/money';
import {
  DEFAULT_VM_GPU,
  DEFAULT_VM_TEMPLATE,
  VM_LIMITS,
  type VmTemplate,
} from '../../../../shared/vm-options';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Select } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { keepIdempotencyKey, newIdempotencyKey, serverFieldErrors } from '../../../lib/api-client';
import { chosenKind, offeredKinds } from '../../../lib/instance-kinds';
import { vmCardHref } from '../../../lib/instance-links';
import { BalanceRow, LaunchRefusalNote, useLaunchGuard } from '../../../lib/launch-guard';
import { LaunchNotice } from '../../../lib/launch-notice';
import { useCreateVm } from '../api/create-vm';
import { type CreateVmDraft, draftPath } from '../create-draft';
import { DEADLINE_CHOICES, deadlineFrom } from '../deadline-choices';
import { checkImage } from '../kind-contract';
import { KindFields } from './kind-fields';

type NumberField = keyof typeof VM_LIMITS;
const NUMBER_FIELDS: { key: NumberField; label: string }[] = [
  { key: 'cpu_cores', label: 'CPU Cores' },
  { key: 'ram_gb', label: 'RAM (GB)' },
  { key: 'disk_gb', label: 'Disk (GB)' },
];

/** Why a template cannot run as a container (the only one: Windows 11). */
const CONTAINER_TEMPLATE_REASON = 'Containers run Linux images only.';

/**
 * The message under a number field whose value is not a whole number within its bounds, or
 * asks more than the chosen listing's GPU share gives (the server's words).
 */
function numberError(key: NumberField, raw: string, share: GpuShareShown | null): string | null {
  const { min, max } = VM_LIMITS[key];
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max)
    return `Enter a whole number from ${min} to ${max}.`;
  if (share && key !== 'disk_gb') {
    const beyond = shapeBeyondShare(
      key === 'cpu_cores' ? { cpus: value } : { memoryGb: value },
      share,
    );
    const message = beyond[key];
    if (message) return `${message}.`;
  }
  return null;
}

/** A listing as the host choice names it: provider, place, demo or not, rate. */
function listingName(l: VmListingChoice): string {
  return `${l.provider_name}, ${l.location}${l.is_demo_host ? ' (demo host)' : ''} - ${formatMoney(l.hourly_rate)}/hr`;
}

/** One GPU's share of the listing's host, when its host has reported it. */
function shareOf(l: VmListingChoice | undefined): GpuShareShown | null {
  return l && l.max_cpu_cores !== null && l.max_ram_gb !== null
    ? { vcpus: l.max_cpu_cores, memoryGb: l.max_ram_gb }
    : null;
}

/** Where the VM will run and what it may ask there, said before anything is charged. */
function runsOnText(l: VmListingChoice | undefined): string | undefined {
  if (!l) return undefined;
  const share = shareOf(l);
  return `Runs on listing #${l.listing_id}: ${l.provider_name}, ${l.location}${l.is_demo_host ? ' (demo host)' : ''}. ${
    share
      ? `Each GPU there gives up to ${shareLabel(share)}.`
      : 'Its host has not reported its CPU and RAM yet.'
  }`;
}

/**
 * The create form: only GPUs with is_available are offered; CPU, RAM
 * and disk carry their bounds as input attributes and are checked here, with the message
 * under the field (no native bubbles); the server checks them again and its message is the
 * toast's, and under the field it names.
 */
export function CreateVmForm({
  gpus,
  templates,
  draft = {},
  onCreated,
  onCancel,
}: {
  gpus: GpuOffering[];
  templates: VmTemplateOption[];
  /** The choices it opens with (back from Add Credits). */
  draft?: Partial<CreateVmDraft>;
  onCreated: () => void;
  onCancel: () => void;
}) {
  const offered = gpus.filter((g) => g.is_available);
  const initialGpu = offered.some((g) => g.gpu_type === DEFAULT_VM_GPU)
    ? DEFAULT_VM_GPU
    : (offered[0]?.gpu_type ?? '');
  // The GPU types may arrive after the form opens: until one is picked (and while the pick is
  // still offered), the default follows the list as it stands.
  const [picked, setGpuType] = useState(draft.gpu ?? '');
  const gpuType = offered.some((g) => g.gpu_type === picked) ? picked : initialGpu;
  // "" is the cheapest rentable listing of the type (what the server picks without an id).
  const [listingId, setListingId] = useState(draft.listing ?? '');
  const choices = offered.find((g) => g.gpu_type === gpuType)?.listings ?? [];
  const chosen =
    listingId === '' ? choices[0] : choices.find((l) => String(l.listing_id) === listingId);
  const share = shareOf(chosen);
  // Kind (docs/decisions/025): the renter's pick while the chosen host runs it, else a VM.
  const [pickedKind, setKind] = useState<InstanceKind>(draft.kind ?? 'vm');
  const kinds = offeredKinds(chosen?.kinds);
  const kind = chosenKind(pickedKind, kinds);
  const [image, setImage] = useState(draft.image ?? '');
  // CPU and RAM the renter has not typed follow the chosen listing's share: the defaults,
  // fitted to it (what the server gives for a field left out), so the form never opens asking
  // for more than the host gives.
  const [typed, setTyped] = useState<Partial<Record<NumberField, true>>>(() => ({
    ...(draft.cpu !== undefined ? { cpu_cores: true as const } : {}),
    ...(draft.ram !== undefined ? { ram_gb: true as const } : {}),
  }));
  const fitted = (key: NumberField): number | null => {
    if (!share || key === 'disk_gb' || typed[key]) return null;
    const cap = key === 'cpu_cores' ? share.vcpus : Math.floor(share.memoryGb);
    return Math.min(VM_LIMITS[key].default, cap);
  };
  const shown = (key: NumberField): string => {
    const value = fitted(key);
    if (value === null) return numbers[key];
    // Under a GB on a small host: the share as it is (one decimal), not a rounded 0.
    return key === 'ram_gb' && value === 0 && share ? String(share.memoryGb) : String(value);
  };
  const [numbers, setNumbers] = useState<Record<NumberField, string>>({
    cpu_cores: draft.cpu ?? String(VM_LIMITS.cpu_cores.default),
    ram_gb: draft.ram ?? String(VM_LIMITS.ram_gb.default),
    disk_gb: draft.disk ?? String(VM_LIMITS.disk_gb.default),
  });
  const [pickedTemplate, setTemplate] = useState<VmTemplate>(
    (draft.template as VmTemplate | undefined) ?? DEFAULT_VM_TEMPLATE,
  );
  // A container runs Linux images only: Windows 11 is shown disabled, with the reason.
  const shownTemplates = templates.map((t) =>
    kind === 'container' && t.id === 'windows11'
      ? { ...t, available: false, reason: CONTAINER_TEMPLATE_REASON }
      : t,
  );
  const template = shownTemplates.some((t) => t.id === pickedTemplate && t.available)
    ? pickedTemplate
    : DEFAULT_VM_TEMPLATE;
  // Deadlines (issue 23, part 5): "" is none; a choice becomes a time when the form is sent.
  const [stopAfter, setStopAfter] = useState(draft.stop ?? '');
  const [terminateAfter, setTerminateAfter] = useState(draft.terminate ?? '');
  // Idle stop (docs/decisions/019): "" takes the account default (Settings → Billing).
  const [idleStop, setIdleStop] = useState(draft.idle ?? '');
  // One key per opened form; a new one after a refusal the server keeps (docs/decisions/009).
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const create = useCreateVm();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const unavailable = shownTemplates.filter((t) => !t.available && t.reason);
  // The first hour against the balance and spend caps (issue 42): a pay-as-you-go instance is
  // admitted when the balance holds one hour of its compute and its disk.
  const diskGb = Number(numbers.disk_gb);
  const firstHour = chosen
    ? firstHourCharge(
        dollarsToMicros(chosen.hourly_rate),
        Number.isInteger(diskGb) && diskGb > 0 ? diskGb : VM_LIMITS.disk_gb.default,
      )
    : null;
  const guard = useLaunchGuard(firstHour);
  const refused = guard.refusal !== null;
  const returnTo = draftPath({
    gpu: gpuType,
    listing: listingId,
    kind,
    image,
    template,
    ...(typed.cpu_cores ? { cpu: numbers.cpu_cores } : {}),
    ...(typed.ram_gb ? { ram: numbers.ram_gb } : {}),
    disk: numbers.disk_gb,
    stop: stopAfter,
    terminate: terminateAfter,
    idle: idleStop,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (refused) return;
    const found: Record<string, string> = {};
    for (const { key } of NUMBER_FIELDS) {
      if (fitted(key) !== null) continue; // the share's own figure
      const message = numberError(key, numbers[key], share);
      if (message) found[key] = message;
    }
    // The server's own schema (shared/contracts/instance-kind.ts), loaded with the first check.
    const checked = kind === 'container' ? await checkImage(image) : null;
    if (checked?.error) found.image = checked.error;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body: CreateVmBody = {
      kind,
      gpu_type: gpuType,
      disk_gb: Number.parseInt(numbers.disk_gb, 10),
      template,
    };
    if (checked?.image) body.image = checked.image;
    for (const key of ['cpu_cores', 'ram_gb'] as const) {
      const value = fitted(key) ?? Number.parseInt(numbers[key], 10);
      // Below the form's minimum only on a host whose share is smaller: left out, the server
      // fits the default to the share (docs/decisions/024).
      if (value >= VM_LIMITS[key].min) body[key] = value;
    }
    if (listingId !== '' && chosen) body.gpu_listing_id = chosen.listing_id;
    const stopAt = deadlineFrom(stopAfter, Date.now());
    const terminateAt = deadlineFrom(terminateAfter, Date.now());
    if (stopAt) body.stop_at = stopAt;
    if (terminateAt) body.terminate_at = terminateAt;
    if (idleStop) body.idle_stop_minutes = Number(idleStop);
    try {
      const created = await create.mutateAsync({ body, idempotencyKey });
      toast({
        title: 'VM Created',
        description: 'Your GPU instance is being created and will be ready shortly.',
        link: { href: vmCardHref(created.vm_id), label: `View instance #${created.vm_id}` },
      });
      onCreated();
    } catch (error) {
      if (!keepIdempotencyKey(error)) setIdempotencyKey(newIdempotencyKey());
      setErrors(serverFieldErrors(error));
      toastFailure('Failed to Create VM', error, 'There was an error creating your VM instance.');
    }
  }

  return (
    <Card className="p-5">
      <h2 className="text-lg font-semibold">Create New Instance</h2>
      {/* Outside the form: the notice has a form of its own (add an SSH key). */}
      <div className="mt-4 empty:hidden">
        <LaunchNotice />
      </div>
      <form
        className="mt-4 grid gap-4"
        onSubmit={submit}
        aria-label="Create New Instance"
        noValidate
      >
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Field
            id="vm-gpu"
            label="GPU Type"
            hint={offered.length === 0 ? 'No GPU can be rented right now.' : undefined}
          >
            <Select
              id="vm-gpu"
              value={gpuType}
              onChange={(e) => {
                setGpuType(e.target.value);
                setListingId('');
              }}
              disabled={offered.length === 0}
            >
              {offered.map((g) => (
                <option key={g.gpu_type} value={g.gpu_type}>
                  {g.gpu_type} ({g.memory_gb}GB) - {formatMoney(g.hourly_rate)}/hr
                </option>
              ))}
            </Select>
          </Field>
          <Field
            id="vm-listing"
            label="Host"
            hint={runsOnText(chosen)}
            className="sm:col-span-1 lg:col-span-2"
          >
            <Select
              id="vm-listing"
              value={listingId}
              onChange={(e) => setListingId(e.target.value)}
              disabled={choices.length === 0}
              aria-describedby={chosen ? 'vm-listing-hint' : undefined}
            >
              {choices[0] ? <option value="">Cheapest: {listingName(choices[0])}</option> : null}
              {choices.map((l) => (
                <option key={l.listing_id} value={String(l.listing_id)}>
                  #{l.listing_id} {listingName(l)}
                </option>
              ))}
            </Select>
          </Field>
          <KindFields
            kind={kind}
            offered={kinds}
            onKindChange={setKind}
            image={image}
            onImageChange={setImage}
            template={template}
            error={errors.image ?? null}
          />
          {NUMBER_FIELDS.map(({ key, label }) => {
            // CPU and RAM: at most the chosen listing's GPU share of its host.
            const cap =
              share && key === 'cpu_cores'
                ? share.vcpus
                : share && key === 'ram_gb'
                  ? Math.floor(share.memoryGb)
                  : VM_LIMITS[key].max;
            const max = Math.min(VM_LIMITS[key].max, cap);
            const hint =
              max < VM_LIMITS[key].min
                ? `At most ${max === 0 && share ? share.memoryGb : max} on this host (its GPU's share)`
                : `${VM_LIMITS[key].min}–${max}${max < VM_LIMITS[key].max ? ' on this host' : ''}`;
            return (
              <Field
                key={key}
                id={`vm-${key}`}
                label={label}
                hint={hint}
                error={errors[key] ?? null}
              >
                <Input
                  id={`vm-${key}`}
                  type="number"
                  inputMode="numeric"
                  step={1}
                  min={VM_LIMITS[key].min}
                  max={max}
                  value={shown(key)}
                  onChange={(e) => {
                    setTyped((t) => ({ ...t, [key]: true }));
                    setNumbers((n) => ({ ...n, [key]: e.target.value }));
                  }}
                  aria-invalid={errors[key] ? true : undefined}
                  aria-describedby={errors[key] ? `vm-${key}-error` : `vm-${key}-hint`}
                />
              </Field>
            );
          })}
          <Field
            id="vm-template"
            label="Template"
            hint={unavailable.map((t) => `${t.name}: ${t.reason}`).join(' ') || undefined}
          >
            <Select
              id="vm-template"
              value={template}
              onChange={(e) => setTemplate(e.target.value as VmTemplate)}
              aria-describedby={unavailable.length > 0 ? 'vm-template-hint' : undefined}
            >
              {shownTemplates.map((t) => (
                <option key={t.id} value={t.id} disabled={!t.available}>
                  {t.available ? t.name : `${t.name} (unavailable)`}
                </option>
              ))}
            </Select>
          </Field>
          {(
            [
              ['vm-stop-after', 'Stop after', stopAfter, setStopAfter, 'its disk is kept'],
              [
                'vm-terminate-after',
                'Terminate after',
                terminateAfter,
                setTerminateAfter,
                'its disk is deleted',
              ],
            ] as const
          ).map(([fieldId, label, value, setValue, hint]) => (
            <Field key={fieldId} id={fieldId} label={label} hint={`Optional: ${hint}.`}>
              <Select
                id={fieldId}
                value={value}
                onChange={(e) => setValue(e.target.value)}
                aria-describedby={`${fieldId}-hint`}
                options={DEADLINE_CHOICES}
              >
                <option value="">Never</option>
              </Select>
            </Field>
          ))}
          <Field
            id="vm-idle-stop"
            label="Idle stop"
            hint="Stops it, its disk kept, when its GPU stays under your idle threshold (5% unless set in Settings) and nobody is logged in over SSH or the web console; you are warned 10 minutes before."
          >
            <Select
              id="vm-idle-stop"
              value={idleStop}
              onChange={(e) => setIdleStop(e.target.value)}
              aria-describedby="vm-idle-stop-hint"
              options={IDLE_STOP_CHOICES}
            >
              <option value="">Account default</option>
            </Select>
          </Field>
        </div>
        <dl className="grid max-w-md gap-1.5 rounded-lg bg-muted p-4 text-sm">
          <div className="flex justify-between gap-2">
            <dt className="text-muted-foreground">First hour (held to start)</dt>
            <dd data-testid="vm-first-hour">
              {firstHour ? formatMoney(chargeDollars(firstHour.balanceMicros)) : '…'}
            </dd>
          </div>
          <BalanceRow limits={guard.limits} />
        </dl>
        <LaunchRefusalNote id="vm-create-refusal" refusal={guard.refusal} returnTo={returnTo} />
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            disabled={create.isPending || offered.length === 0 || refused}
            aria-describedby={refused ? 'vm-create-refusal' : undefined}
          >
            {create.isPending ? 'Creating...' : 'Create Instance'}
          </Button>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
