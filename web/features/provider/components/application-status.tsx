import { Clock, type LucideIcon, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import {
  PROVIDER_APPLICATION_TEXT,
  type ProviderApplicationView,
} from '../../../../shared/contracts/provider-application';
import { formatDate } from '../../../../shared/rules/time';
import { Badge } from '../../../components/ui/badge';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

/** The application's state: its icon, its heading and its badge, then what it means. */
function StateCard({
  icon: Icon,
  color,
  heading,
  tone,
  badge,
  children,
}: {
  icon: LucideIcon;
  /** The icon's colour class. */
  color: string;
  heading: string;
  tone: 'danger' | 'warning';
  badge: string;
  children: ReactNode;
}) {
  return (
    <Card className="mt-8 grid gap-4 p-6 sm:p-8" role="region" aria-labelledby="application-state">
      <div className="flex flex-wrap items-center gap-3">
        <Icon className={`h-6 w-6 ${color}`} aria-hidden />
        <h2 id="application-state" className="text-xl font-semibold">
          {heading}
        </h2>
        <Badge tone={tone}>{badge}</Badge>
      </div>
      {children}
    </Card>
  );
}

/** What an applicant without a provider profile sees on /provider while they wait or after a no. */
export function ApplicationStatus({
  application,
  dates,
}: {
  application: ProviderApplicationView;
  dates: { timeZone: string; language: string };
}) {
  const company = application.application.companyName;
  if (application.status === 'rejected') {
    return (
      <StateCard
        icon={XCircle}
        color="text-danger-text"
        heading="Your provider application was not approved"
        tone="danger"
        badge="Rejected"
      >
        <p className="text-muted-foreground">
          We reviewed your application for{' '}
          <span className="font-medium text-foreground">{company}</span>
          {application.reviewedAt ? ` on ${formatDate(application.reviewedAt, dates)}` : ''}.
        </p>
        <div className="grid gap-1">
          <p className="text-sm font-medium">Reason</p>
          <p className="whitespace-pre-line rounded-md border border-border bg-muted/40 p-3 text-sm">
            {application.rejectionReason}
          </p>
        </div>
        <Link href="/provider-signup" className={buttonClasses('provider', 'md', 'w-fit')}>
          Apply again
        </Link>
      </StateCard>
    );
  }
  return (
    <StateCard
      icon={Clock}
      color="text-warning-text"
      heading="Your provider application is under review"
      tone="warning"
      badge="Pending"
    >
      <p className="text-muted-foreground">
        You applied as <span className="font-medium text-foreground">{company}</span> on{' '}
        <span className="font-medium text-foreground">
          {formatDate(application.createdAt, dates)}
        </span>
        .
      </p>
      <p>{PROVIDER_APPLICATION_TEXT.reviewTime}</p>
      <p className="text-sm text-muted-foreground">
        After approval: verification with benchmarks (24-48 hours), integration, then go live. We
        e-mail you when your application has been reviewed.
      </p>
    </StateCard>
  );
}
