import { Rocket, Zap } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type {
  DeployGpuView,
  DeploymentStatusView,
  DeployResultView,
} from '../../../../shared/contracts/deploy';
import type { InstanceKind } from '../../../../shared/instance-kinds';

type DeploymentView = DeploymentStatusView['deployment'];

import {
  DEPLOY_STORAGE_GB,
  DEPLOY_STORAGE_USD_PER_GB_HOUR,
  type DeployTemplateId,
  deployHourlyCost,
  deployStorageFromInput,
  deployTemplate,
  isDeployTemplateId,
} from '../../../../shared/deploy-templates';
import { firstHourCharge } from '../../../../shared/rules/balance-guard';
import { dollarsToMicros } from '../../../../shared/rules/money';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { keepIdempotencyKey, newIdempotencyKey, serverMessage } from '../../../lib/api-client';
import { KIND_LABELS, KINDS } from '../../../lib/instance-kinds';
import { KindChoice } from '../../../lib/kind-choice';
import { BalanceRow, LaunchRefusalNote, useLaunchGuard } from '../../../lib/launch-guard';
import { LaunchNotice } from '../../../lib/launch-notice';
import { useCreateDeployment } from '../api/create-deployment';
import { useDeployGpus } from '../api/get-deploy-gpus';
import { useDeployment } from '../api/get-deployment';
import { DeployResult } from './deploy-result';
import { GpuPicker } from './gpu-picker';
import { TemplatePicker } from './template-picker';

/**
 * The promise of a start within a minute, shown only where the measured (or demo host's)
 * start time is below it.
 */
const PROMISE_SECONDS = 60;

function promiseHolds(gpus: readonly DeployGpuView[], selected: DeployGpuView | null): boolean {
  const concerned = selected ? [selected] : gpus.filter((g) => g.is_available);
  return (
    concerned.length > 0 &&
    concerned.every((g) => g.ready_seconds !== null && g.ready_seconds < PROMISE_SECONDS)
  );
}

const usd = (n: number, decimals: number) => `$${n.toFixed(decimals)}`;

/** A deploy's result at its own address (/deploy?deployment=ID), so navigation keeps it. */
function DeploymentAtAddress({
  id,
  onDeployAnother,
}: {
  id: number;
  onDeployAnother: (from?: DeploymentView) => void;
}) {
  const query = useDeployment(id);
  const { data } = query;
  if (data)
    return <DeployResult initial={data} onDeployAnother={() => onDeployAnother(data.deployment)} />;
  return (
    <Card className="mt-6 p-5" data-testid="deploy-result">
      {query.isError ? (
        <div className="grid gap-3">
          <p role="alert">This deployment could not be found.</p>
          <Button
            variant="outline"
            className="justify-self-start"
            onClick={() => onDeployAnother()}
          >
            Deploy another
          </Button>
        </div>
      ) : (
        <p aria-busy="true">Loading the deployment...</p>
      )}
    </Card>
  );
}

/** The form's choices in the address (issue 42: Add Credits comes back to them). */
const CHOICE_PARAMS = ['template', 'gpu', 'kind', 'storage'] as const;

function choicesInAddress(search: string) {
  const params = new URLSearchParams(search);
  const template = params.get('template');
  const kind = params.get('kind');
  return {
    template: isDeployTemplateId(template) ? template : null,
    gpu: params.get('gpu')?.slice(0, 100) ?? null,
    kind: kind === 'vm' || kind === 'container' ? (kind as InstanceKind) : null,
    storage: params.get('storage')?.slice(0, 10) ?? null,
    asked: CHOICE_PARAMS.some((p) => params.has(p)),
  };
}

/** Instant GPU Deployment: template, GPU, storage, live cost, Deploy Instantly, then the result. */
export function DeployView() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const shownId = Number(new URLSearchParams(search).get('deployment')) || null;
  const gpuQuery = useDeployGpus();
  const gpus = gpuQuery.data?.gpus;
  // Back from Add Credits (/deploy?template=…&gpu=…&kind=…&storage=…): the same choices.
  const [initial] = useState(() => choicesInAddress(search));
  const [template, setTemplate] = useState<DeployTemplateId | null>(initial.template);
  const [gpuType, setGpuType] = useState<string | null>(initial.gpu);
  // The GPU list does not say which kinds its listings' hosts run: both are offered, and a host
  // that runs only one refuses the other with its message (shown under the button).
  const [kind, setKind] = useState<InstanceKind>(initial.kind ?? 'vm');
  const [storageText, setStorageText] = useState(
    initial.storage ?? String(DEPLOY_STORAGE_GB.initial),
  );
  const asksChoices = choicesInAddress(search).asked;
  useEffect(() => {
    if (asksChoices) navigate('/deploy', { replace: true });
  }, [asksChoices, navigate]);
  const [result, setResult] = useState<DeployResultView | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const create = useCreateDeployment();
  // One Idempotency-Key per deploy attempt: a retried request is the same deploy.
  const attemptKey = useRef(newIdempotencyKey());

  const storage = deployStorageFromInput(storageText);
  const gpu = gpus?.find((g) => g.gpu_type === gpuType && g.is_available) ?? null;
  const rate = gpu ? Number(gpu.hourly_rate) : 0;
  const ready = Boolean(template && gpu);
  const deploying = create.isPending;
  const promise = gpus ? promiseHolds(gpus, gpu) : false;
  // The first hour against the balance and spend caps (issue 42): a deploy is pay-as-you-go,
  // admitted when the balance holds one hour of its GPU and storage.
  const guard = useLaunchGuard(
    gpu ? firstHourCharge(dollarsToMicros(gpu.hourly_rate), storage) : null,
  );
  const refused = guard.refusal !== null;
  const returnParams = new URLSearchParams({ kind, storage: String(storage) });
  if (template) returnParams.set('template', template);
  if (gpu) returnParams.set('gpu', gpu.gpu_type);
  const returnTo = `/deploy?${returnParams}`;

  async function deploy() {
    if (deploying || refused) return;
    if (!template || !gpu) {
      toast({
        title: 'Missing Selection',
        description: 'Please select both a template and GPU type.',
        variant: 'destructive',
      });
      return;
    }
    setRefusal(null);
    setStorageText(String(storage));
    try {
      const answer = await create.mutateAsync({
        body: { gpu_type: gpu.gpu_type, template, kind, storage_gb: storage },
        idempotencyKey: attemptKey.current,
      });
      attemptKey.current = newIdempotencyKey();
      setResult(answer);
      navigate(`/deploy?deployment=${answer.deployment.deployment_id}`);
      toast({
        title: 'Deployment Initiated',
        description: "Your GPU instance is being prepared. You'll receive access details shortly.",
      });
    } catch (error) {
      if (!keepIdempotencyKey(error)) attemptKey.current = newIdempotencyKey();
      setRefusal(serverMessage(error, 'Failed to deploy GPU instance. Please try again.'));
      toast({
        title: 'Deployment Failed',
        description: 'Failed to deploy GPU instance. Please try again.',
        variant: 'destructive',
      });
    }
  }

  /** Back to the form, with the template and GPU of the deployment shown (as before a reload). */
  function deployAnother(from?: DeploymentView) {
    if (from) {
      setTemplate(from.template);
      setGpuType(from.gpu_type);
      setKind(from.kind);
    }
    setResult(null);
    setRefusal(null);
    navigate('/deploy');
  }

  return (
    <>
      <div
        data-testid="deploy-banner"
        className="mt-6 flex items-start gap-3 rounded-xl border border-primary/30 bg-primary/10 p-4"
      >
        <Zap className="mt-0.5 h-5 w-5 shrink-0 text-link" aria-hidden />
        <div className="grid gap-1">
          <p className="font-semibold">
            {promise
              ? 'Deploy in under 60 seconds'
              : 'Deploy a ready-made GPU environment in a few clicks'}
          </p>
          <p className="text-sm text-muted-foreground">
            {promise
              ? 'Measured from Deploy Instantly to a running instance on the GPUs offered here. The template’s software then installs on first boot.'
              : 'Each GPU shows how long it takes to start where we have measured it. The template’s software installs on first boot.'}
          </p>
        </div>
      </div>

      {result && result.deployment.deployment_id === shownId ? (
        <DeployResult key={shownId} initial={result} onDeployAnother={() => deployAnother()} />
      ) : shownId ? (
        <DeploymentAtAddress key={shownId} id={shownId} onDeployAnother={deployAnother} />
      ) : (
        <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
          <div className="grid gap-8">
            <TemplatePicker value={template} onChange={setTemplate} disabled={deploying} />
            <GpuPicker
              gpus={gpus}
              loading={gpuQuery.isLoading}
              failed={gpuQuery.isError}
              value={gpu?.gpu_type ?? null}
              onChange={setGpuType}
              disabled={deploying}
            />
          </div>
          <Card
            className="grid gap-4 p-5 lg:sticky lg:top-20"
            aria-labelledby="deploy-config-heading"
          >
            <h2 id="deploy-config-heading" className="text-lg font-semibold">
              3. Kind, storage and cost
            </h2>
            <KindChoice
              name="deploy-kind"
              value={kind}
              offered={KINDS}
              onChange={setKind}
              disabled={deploying}
              narrow
            />
            <Field
              id="deploy-storage"
              label="Storage (GB)"
              hint={`${DEPLOY_STORAGE_GB.min}–${DEPLOY_STORAGE_GB.max} GB; anything else uses ${DEPLOY_STORAGE_GB.initial} GB.`}
            >
              <Input
                id="deploy-storage"
                type="number"
                inputMode="numeric"
                min={DEPLOY_STORAGE_GB.min}
                max={DEPLOY_STORAGE_GB.max}
                step={1}
                value={storageText}
                disabled={deploying}
                aria-describedby="deploy-storage-hint"
                onChange={(e) => setStorageText(e.target.value)}
                onBlur={() => setStorageText(String(storage))}
              />
            </Field>
            <dl className="grid gap-1.5 text-sm">
              <div className="flex justify-between gap-2">
                <dt className="text-muted-foreground">Template</dt>
                <dd className="text-right">
                  {template ? deployTemplate(template).name : 'Not selected'}
                </dd>
              </div>
              <div className="flex justify-between gap-2">
                <dt className="text-muted-foreground">Kind</dt>
                <dd className="text-right" data-testid="cost-kind">
                  {KIND_LABELS[kind]}
                </dd>
              </div>
              <div className="flex justify-between gap-2">
                <dt className="text-muted-foreground">GPU</dt>
                <dd className="text-right" data-testid="cost-gpu">
                  {gpu ? `${gpu.gpu_type} · ${usd(rate, 2)}/hour` : 'Not selected'}
                </dd>
              </div>
              <div className="flex justify-between gap-2">
                <dt className="text-muted-foreground">
                  Storage ({storage} GB × ${DEPLOY_STORAGE_USD_PER_GB_HOUR})
                </dt>
                <dd data-testid="cost-storage">
                  {usd(storage * DEPLOY_STORAGE_USD_PER_GB_HOUR, 3)}/hour
                </dd>
              </div>
              <div className="flex justify-between gap-2 border-t border-border pt-2 text-base font-semibold">
                <dt>Estimated cost</dt>
                <dd data-testid="cost-total">{usd(deployHourlyCost(rate, storage), 3)}/hour</dd>
              </div>
              <BalanceRow limits={guard.limits} />
            </dl>
            <p className="text-xs text-muted-foreground">
              Pay as you go from your credits, by the minute: the GPU from the moment it is ready
              (never while it downloads or boots), storage until you terminate it.
            </p>
            <LaunchNotice />
            <LaunchRefusalNote id="deploy-guard" refusal={guard.refusal} returnTo={returnTo} />
            <Button
              size="lg"
              onClick={deploy}
              disabled={deploying || refused}
              aria-describedby={refused ? 'deploy-guard' : undefined}
              aria-disabled={!ready || deploying}
              // Until a template and a GPU are chosen the button says it is unavailable but still
              // answers a press with 'Missing Selection' (e2e/instant-deploy.spec.ts).
              className="aria-disabled:cursor-not-allowed aria-disabled:border aria-disabled:border-dashed aria-disabled:border-muted-foreground/40 aria-disabled:bg-muted aria-disabled:text-muted-foreground aria-disabled:opacity-80 aria-disabled:shadow-none"
            >
              <Rocket className="h-4 w-4" aria-hidden />
              {deploying ? 'Deploying...' : 'Deploy Instantly'}
            </Button>
            {refusal ? (
              <p role="alert" className="text-sm text-danger-text" data-testid="deploy-refusal">
                {refusal}
              </p>
            ) : null}
          </Card>
        </div>
      )}
    </>
  );
}
