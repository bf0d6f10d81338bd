import { useState } from 'react';
import {
  BUSINESS_TYPE_LABELS,
  COOLING_TYPE_LABELS,
  FACILITY_TYPE_LABELS,
  PRICING_MODEL_LABELS,
  PROVIDER_APPLICATION_LIMITS,
  type ProviderApplicationView,
  rejectApplicationBody,
} from '../../../../shared/contracts/provider-application';
import { formatDate } from '../../../../shared/rules/time';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Textarea } from '../../../components/ui/field';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { serverMessage } from '../../../lib/api-client';
import { useApproveProviderApplication } from '../api/approve-provider-application';
import { useProviderApplications } from '../api/list-provider-applications';
import { useRejectProviderApplication } from '../api/reject-provider-application';

type Dates = { timeZone: string; language: string };

const TONE: Record<ProviderApplicationView['status'], BadgeTone> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'danger',
};
const LABEL: Record<ProviderApplicationView['status'], string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

function details(a: ProviderApplicationView['application']): [string, string][] {
  const list = (items: readonly string[]) => (items.length ? items.join(', ') : '—');
  const or = (value: string) => value || '—';
  return [
    ['Business type', BUSINESS_TYPE_LABELS[a.businessType]],
    ['Registration number', or(a.registrationNumber)],
    ['Tax ID', or(a.taxId)],
    ['Contact person', a.contactPersonName],
    ['Email', a.email],
    ['Phone', a.phone],
    ['Website', or(a.website)],
    ['Address', `${a.address}, ${a.city}, ${a.state} ${a.postalCode}, ${a.country}`],
    ['Timezone', a.timezone],
    ['Facility', FACILITY_TYPE_LABELS[a.facilityType]],
    ['Power capacity', a.powerCapacity],
    ['Cooling', COOLING_TYPE_LABELS[a.coolingType]],
    ['Internet speed', a.internetSpeed],
    ['Uptime guarantee', a.uptimeGuarantee],
    ['Total GPUs', String(a.totalGpuCount)],
    ['GPU models', list(a.gpuModels)],
    ['Total VRAM', a.totalVramCapacity],
    ['Additional hardware', or(a.additionalHardware)],
    ['Security measures', list(a.securityMeasures)],
    ['Certifications', list(a.certifications)],
    ['Data retention policy', a.dataRetentionPolicy],
    ['Pricing model', PRICING_MODEL_LABELS[a.pricingModel]],
    ['Minimum rental duration', a.minimumRentalDuration],
    ['Payment terms', a.paymentTerms],
    ['Cancellation policy', a.cancellationPolicy],
    ['Support hours', a.supportHours],
    ['Response time SLA', a.responseTime],
    ['Maintenance schedule', a.maintenanceSchedule],
  ];
}

function ReviewActions({ application }: { application: ProviderApplicationView }) {
  const approve = useApproveProviderApplication();
  const reject = useRejectProviderApplication();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = approve.isPending || reject.isPending;
  const company = application.application.companyName;
  const reasonId = `reject-reason-${application.id}`;

  async function onApprove() {
    try {
      await approve.mutateAsync(application.id);
      toast({ title: 'Application Approved', description: `${company} is now a provider.` });
    } catch (e) {
      toastFailure('Approval Failed', e, 'Failed to approve the application.');
    }
  }

  async function onReject() {
    const parsed = rejectApplicationBody.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      document.getElementById(reasonId)?.focus();
      return;
    }
    try {
      await reject.mutateAsync({ id: application.id, reason: parsed.data.reason });
      toast({ title: 'Application Rejected', description: `${company} was told the reason.` });
    } catch (e) {
      toastFailure('Rejection Failed', e, 'Failed to reject the application.');
    }
  }

  return (
    <div className="grid gap-3 border-t border-border pt-4">
      <Field id={reasonId} label="Reason for rejection" error={error} hint="Sent to the applicant.">
        <Textarea
          id={reasonId}
          rows={2}
          value={reason}
          maxLength={PROVIDER_APPLICATION_LIMITS.reason}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${reasonId}-error` : `${reasonId}-hint`}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button variant="provider" disabled={busy} onClick={() => void onApprove()}>
          {approve.isPending ? 'Approving...' : `Approve ${company}`}
        </Button>
        <Button variant="danger" disabled={busy} onClick={() => void onReject()}>
          {reject.isPending ? 'Rejecting...' : 'Reject'}
        </Button>
      </div>
    </div>
  );
}

function ApplicationCard({
  application,
  dates,
}: {
  application: ProviderApplicationView;
  dates: Dates;
}) {
  const a = application.application;
  const headingId = `application-${application.id}`;
  return (
    <Card className="grid gap-4 p-4 sm:p-6" role="region" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {a.companyName}
        </h2>
        <Badge tone={TONE[application.status]}>{LABEL[application.status]}</Badge>
      </div>
      <p className="text-sm text-muted-foreground">
        Submitted {formatDate(application.createdAt, { ...dates, withTime: true })} · {a.city},{' '}
        {a.country} · {a.totalGpuCount} GPU{a.totalGpuCount === 1 ? '' : 's'} (
        {a.gpuModels.join(', ')})
        {application.reviewedAt
          ? ` · Reviewed ${formatDate(application.reviewedAt, { ...dates, withTime: true })}`
          : ''}
      </p>
      {application.rejectionReason ? (
        <p className="text-sm">
          <span className="font-medium">Reason: </span>
          {application.rejectionReason}
        </p>
      ) : null}
      <details className="text-sm">
        <summary className="cursor-pointer font-medium">All details</summary>
        <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          {details(a).map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="break-words">{value}</dd>
            </div>
          ))}
        </dl>
      </details>
      {application.status === 'pending' ? <ReviewActions application={application} /> : null}
    </Card>
  );
}

/** The admins' review of provider applications (issue 10): pending first, approve or reject. */
export function ProviderApplicationsReview({ dates }: { dates: Dates }) {
  const applications = useProviderApplications();
  if (applications.isLoading) {
    return (
      <div className="mt-6 grid gap-4" aria-busy="true">
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (applications.error) {
    return (
      <div className="mt-6 grid gap-3">
        <p role="alert">{serverMessage(applications.error, 'Failed to load the applications.')}</p>
        <Button variant="outline" className="w-fit" onClick={() => void applications.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const list = applications.data ?? [];
  const pending = list.filter((a) => a.status === 'pending').length;
  return (
    <div className="mt-6 grid gap-4">
      <p className="text-muted-foreground">
        {pending === 0
          ? 'No applications are waiting for review.'
          : `${pending} application${pending === 1 ? '' : 's'} waiting for review.`}
      </p>
      {list.map((application) => (
        <ApplicationCard key={application.id} application={application} dates={dates} />
      ))}
    </div>
  );
}
