import { useQueryClient } from '@tanstack/react-query';
import { Plus, RefreshCw, Server } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { VmTemplateOption } from '../../../../shared/contracts/kvm';
import { VM_TEMPLATE_LABELS } from '../../../../shared/vm-options';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { errorStatus } from '../../../lib/api-client';
import { useFocusLinked } from '../../../lib/use-focus-linked';
import { useNow } from '../../../lib/use-now';
import { useVmBilling } from '../api/get-vm-billing';
import { useVmGpus, vmGpusQueryOptions } from '../api/get-vm-gpus';
import { useVmInstances } from '../api/get-vm-instances';
import { useVmTemplates, vmTemplatesQueryOptions } from '../api/get-vm-templates';
import { VM_BILLING_KEY, VM_GPUS_KEY, VM_INSTANCES_KEY, VM_TEMPLATES_KEY } from '../api/keys';
import { type CreateVmDraft, draftInAddress } from '../create-draft';
import { BillingCard } from './billing-card';
import { CreateVmForm } from './create-vm-form';
import { VmCard } from './vm-card';

const UBUNTU_ONLY: VmTemplateOption[] = [
  { id: 'ubuntu22', name: VM_TEMPLATE_LABELS.ubuntu22, available: true, reason: null },
];

/** The signed-out state of the VM dashboard: a card that asks to log in. */
export function AuthenticationRequired() {
  return (
    <Card className="mt-8 p-8 text-center" role="region" aria-labelledby="vm-auth-title">
      <h2 id="vm-auth-title" className="text-xl font-semibold">
        Authentication Required
      </h2>
      <p className="mt-2 text-muted-foreground">Please log in to access the VM dashboard.</p>
    </Card>
  );
}

/**
 * The billing card with its own subscription: the summary's arrival renders the card, not the
 * dashboard and its instance cards.
 */
function VmBilling({
  instanceCount,
  stoppedCount,
}: {
  instanceCount: number;
  stoppedCount: number;
}) {
  const billing = useVmBilling(true);
  return (
    <BillingCard summary={billing.data} instanceCount={instanceCount} stoppedCount={stoppedCount} />
  );
}

/** The create form with the GPU types and OS templates it offers, read when it opens. */
function CreateVmPanel({
  draft,
  onDone,
}: {
  draft: Partial<CreateVmDraft> | undefined;
  onDone: () => void;
}) {
  const gpus = useVmGpus(true);
  const templates = useVmTemplates(true);
  return (
    <CreateVmForm
      draft={draft}
      gpus={gpus.data ?? []}
      templates={templates.data ?? UBUNTU_ONLY}
      onCreated={onDone}
      onCancel={onDone}
    />
  );
}

/**
 * The VM dashboard (/vm-dashboard): Refresh and Create New Instance, the billing
 * card, the collapsible create form and the instance cards. The list is polled every 30 s.
 */
export function VmDashboardView() {
  // Back from Add Credits (?create=…): the form opens again with the renter's choices, and
  // the address loses them.
  const search = useSearch();
  const [location, navigate] = useLocation();
  const [draft] = useState(() => draftInAddress(search));
  const [creating, setCreating] = useState(draft !== null);
  const asksDraft = draftInAddress(search) !== null;
  useEffect(() => {
    if (asksDraft) navigate(location, { replace: true });
  }, [asksDraft, location, navigate]);
  const queryClient = useQueryClient();
  const instances = useVmInstances(true);
  const now = useNow(30_000);
  useFocusLinked('vm-', instances.isSuccess);
  // The form's GPU types and templates are fetched with the page, so that it opens filled in,
  // but only the open form subscribes to them: their arrival renders nothing else.
  useEffect(() => {
    void queryClient.prefetchQuery(vmGpusQueryOptions(true));
    void queryClient.prefetchQuery(vmTemplatesQueryOptions(true));
  }, [queryClient]);

  // A session that ended elsewhere: the VM calls answer 401.
  if (errorStatus(instances.error) === 401) return <AuthenticationRequired />;

  function refresh() {
    for (const queryKey of [VM_INSTANCES_KEY, VM_BILLING_KEY, VM_GPUS_KEY, VM_TEMPLATES_KEY]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }

  const list = instances.data ?? [];
  return (
    <div className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={refresh} disabled={instances.isFetching}>
          <RefreshCw
            className={instances.isFetching ? 'h-4 w-4 animate-spin' : 'h-4 w-4'}
            aria-hidden
          />
          Refresh
        </Button>
        <Button onClick={() => setCreating((open) => !open)} aria-expanded={creating}>
          <Plus className="h-4 w-4" aria-hidden />
          Create New Instance
        </Button>
      </div>

      <VmBilling
        instanceCount={list.length}
        stoppedCount={list.filter((vm) => vm.status === 'stopped').length}
      />

      {creating ? (
        <CreateVmPanel draft={draft ?? undefined} onDone={() => setCreating(false)} />
      ) : null}

      <section
        aria-labelledby="vm-instances-title"
        className="grid grid-cols-[minmax(0,1fr)] gap-4"
      >
        <h2 id="vm-instances-title" className="text-xl font-semibold">
          Instances
        </h2>
        {instances.isLoading ? (
          <p className="text-muted-foreground">Loading instances...</p>
        ) : instances.isError ? (
          <p className="text-danger-text" role="alert">
            Could not load your instances. Try Refresh.
          </p>
        ) : list.length === 0 ? (
          <Card className="p-8 text-center">
            <Server className="mx-auto h-10 w-10 text-muted-foreground" aria-hidden />
            <h3 className="mt-3 text-lg font-semibold">No Instances</h3>
            <p className="mt-1 text-muted-foreground">
              Create your first GPU instance to get started.
            </p>
          </Card>
        ) : (
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-2">
            {list.map((vm) => (
              <VmCard key={vm.vm_id} vm={vm} now={now} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
