import { ExternalLink, Loader2 } from 'lucide-react';
import { Link } from 'wouter';
import type { DeploymentStatusView } from '../../../../shared/contracts/deploy';
import { deployTemplate } from '../../../../shared/deploy-templates';
import type { InstanceState } from '../../../../shared/rules/instance-lifecycle';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { KIND_LABELS } from '../../../lib/instance-kinds';
import { vmCardHref } from '../../../lib/instance-links';
import { useNow } from '../../../lib/use-now';
import { useDeployment } from '../api/get-deployment';

const STATUS: Record<InstanceState, { label: string; tone: BadgeTone }> = {
  provisioning: { label: 'Provisioning', tone: 'warning' },
  starting: { label: 'Starting', tone: 'warning' },
  running: { label: 'Running', tone: 'success' },
  stopping: { label: 'Stopping', tone: 'neutral' },
  stopped: { label: 'Stopped', tone: 'neutral' },
  terminating: { label: 'Terminating', tone: 'neutral' },
  terminated: { label: 'Terminated', tone: 'neutral' },
  failed: { label: 'Failed', tone: 'danger' },
};

function Access({ label, value, href }: { label: string; value: string; href?: string }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1 rounded-md bg-muted px-2 py-1">
        {href ? (
          <a
            href={href}
            target="_blank"
            rel="noreferrer"
            className="inline-flex min-w-0 items-center gap-1 break-all font-mono text-sm text-link underline-offset-2 hover:underline"
          >
            {value} <ExternalLink className="h-3.5 w-3.5 shrink-0" aria-hidden />
          </a>
        ) : (
          <code className="min-w-0 flex-1 break-all text-sm">{value}</code>
        )}
        {href ? null : <CopyButton value={value} label={label} />}
      </dd>
    </div>
  );
}

/** Seconds until a time, or null once it has passed. */
function secondsUntil(iso: string, now: number): number | null {
  const left = Math.ceil((Date.parse(iso) - now) / 1000);
  return left > 0 ? left : null;
}

interface DeployResultProps {
  initial: DeploymentStatusView;
  onDeployAnother: () => void;
}

/** The result card: the deployment's id, its live status and how to reach it. */
export function DeployResult({ initial, onDeployAnother }: DeployResultProps) {
  const id = initial.deployment.deployment_id;
  const query = useDeployment(id, initial);
  const { deployment: d, access_info: a } = query.data ?? initial;
  const now = useNow(1000);
  const status = STATUS[d.status];
  const template = deployTemplate(d.template);
  const settling = d.status === 'provisioning' || d.status === 'starting';
  const left = settling ? secondsUntil(d.estimated_ready_time, now) : null;
  return (
    <Card
      className="mt-6 grid gap-5 p-5 sm:p-6"
      aria-labelledby="deploy-result-heading"
      data-testid="deploy-result"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <h2 id="deploy-result-heading" className="text-xl font-semibold">
            {template.name} on {d.gpu_type}
          </h2>
          <p className="text-sm text-muted-foreground">
            Deployment ID{' '}
            <span className="font-mono text-foreground" data-testid="deployment-id">
              {d.deployment_id}
            </span>
          </p>
        </div>
        <div role="status" aria-live="polite" className="flex items-center gap-2">
          {settling ? (
            <Loader2 className="h-4 w-4 animate-spin text-warning-text" aria-hidden />
          ) : null}
          <Badge tone={status.tone} data-testid="deployment-status" className="text-sm">
            {status.label}
          </Badge>
          {settling && d.provisioning_step ? (
            <span className="text-sm text-muted-foreground" data-testid="deployment-step">
              {d.provisioning_step}
            </span>
          ) : null}
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3 lg:grid-cols-5">
        <div>
          <dt className="text-muted-foreground">Template</dt>
          <dd>{template.name}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Kind</dt>
          <dd data-testid="deployment-kind">{KIND_LABELS[d.kind] ?? KIND_LABELS.vm}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Shape</dt>
          <dd>
            {d.cpu_cores} cores · {d.ram_gb} GB RAM · {d.storage_gb} GB
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Rate</dt>
          <dd>${Number(d.hourly_rate).toFixed(2)}/hour + storage</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Location</dt>
          <dd>{d.location}</dd>
        </div>
      </dl>

      {d.is_demo_host ? (
        <p className="rounded-md border border-border bg-muted/50 p-3 text-sm text-muted-foreground">
          This GPU runs on the demo host: the instance and its billing are real, but the addresses
          below are simulated and no machine answers at them.
        </p>
      ) : null}

      <section aria-labelledby="access-heading" className="grid gap-3">
        <h3 id="access-heading" className="font-semibold">
          Access methods
        </h3>
        {a.pending ? (
          <p className="text-sm text-muted-foreground" data-testid="access-pending">
            {a.pending}
            {left !== null ? ` Expected in about ${left}s.` : ''}
          </p>
        ) : (
          <dl className="grid gap-3 lg:grid-cols-2">
            {a.ssh_command ? <Access label="SSH command" value={a.ssh_command} /> : null}
            {a.ssh_host_key_fingerprint ? (
              <Access label="SSH host key" value={a.ssh_host_key_fingerprint} />
            ) : null}
            {a.web_terminal ? (
              <Access label="Web terminal" value={a.web_terminal} href={a.web_terminal} />
            ) : null}
            {a.jupyter_tunnel ? <Access label="Jupyter tunnel" value={a.jupyter_tunnel} /> : null}
            {a.jupyter ? <Access label="Jupyter address" value={a.jupyter} /> : null}
            {a.file_manager ? <Access label="File manager (SFTP)" value={a.file_manager} /> : null}
          </dl>
        )}
        {a.jupyter ? (
          <p className="text-xs text-muted-foreground">
            Jupyter listens inside the instance only: run the tunnel command, then open the address.
            The template's software installs on first boot, so Jupyter answers once setup has
            finished (a few minutes for the larger frameworks).
          </p>
        ) : null}
      </section>

      <div className="flex flex-wrap gap-3">
        <Button variant="outline" onClick={onDeployAnother}>
          Deploy Another
        </Button>
        <Link href={vmCardHref(id)} className={buttonClasses('primary', 'md')}>
          Manage Instances
        </Link>
      </div>
    </Card>
  );
}
