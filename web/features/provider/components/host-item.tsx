import { Cpu, HardDrive, KeyRound, MemoryStick, Server, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { ENROLMENT_TOKEN_TTL_MS, type HostView } from '../../../../shared/contracts/hosts';
import { Badge } from '../../../components/ui/badge';
import {
  bytesAsGb,
  gpuSummary,
  HOST_STATUS_LABELS,
  HOST_STATUS_TONES,
  minutesLeft,
  readinessLines,
  timeAgo,
  uptimeText,
} from '../utils/host-display';
import { ItemButton } from './list-parts';

interface HostItemProps {
  host: HostView;
  now: number;
  renewing: boolean;
  onNewToken: (host: HostView) => void;
  onRemove: (host: HostView) => void;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

export function HostItem({ host, now, renewing, onNewToken, onRemove }: HostItemProps) {
  const awaiting = host.status === 'awaiting_enrolment';
  const gpus = gpuSummary(host.gpus);
  // `now` ticks every few seconds and the browser's clock is not the server's: never more than
  // the token's hour.
  const minutes = host.enrolmentExpiresAt ? minutesLeft(host.enrolmentExpiresAt, now) : null;
  const left = minutes === null ? null : Math.min(minutes, ENROLMENT_TOKEN_TTL_MS / 60_000);
  const titleId = `host-${host.id}-title`;
  const readiness = readinessLines(host);
  return (
    <li
      className="grid gap-3 rounded-lg border border-border p-3 sm:p-4"
      aria-labelledby={titleId}
      data-testid="provider-host"
    >
      <div className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
        <div className="grid min-w-0 gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3
              id={titleId}
              className="inline-flex min-w-0 items-start gap-2 text-base font-semibold wrap-anywhere"
            >
              <Server className="mt-1 h-4 w-4 shrink-0 text-muted-foreground" aria-hidden />
              <span className="min-w-0">{host.name}</span>
            </h3>
            <Badge tone={HOST_STATUS_TONES[host.status]} data-testid="host-status">
              {HOST_STATUS_LABELS[host.status]}
            </Badge>
          </div>
          <p className="text-sm text-muted-foreground wrap-anywhere">
            {host.hostname ?? 'Not connected yet'}
            {host.agentVersion ? ` · agent ${host.agentVersion}` : ''}
          </p>
          {host.publicHost || host.agentAddress ? (
            <p className="text-sm text-muted-foreground wrap-anywhere" data-testid="host-address">
              Renters connect to{' '}
              <span className="font-mono">{host.publicHost ?? host.agentAddress}</span>
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2 md:justify-end">
          {awaiting ? (
            <ItemButton icon={KeyRound} onClick={() => onNewToken(host)} disabled={renewing}>
              {renewing ? 'Creating token...' : 'New token'}
            </ItemButton>
          ) : null}
          <ItemButton icon={Trash2} className="text-danger-text" onClick={() => onRemove(host)}>
            Remove
          </ItemButton>
        </div>
      </div>

      {awaiting ? (
        <p className="rounded-md bg-muted px-3 py-2 text-sm">
          {left !== null ? (
            <>
              Waiting for the agent to enrol. Its token expires in {left} min; run the install
              command on the host before then.
            </>
          ) : (
            <span className="text-warning-text">
              The enrolment token has expired. Press New token for a new install command.
            </span>
          )}
        </p>
      ) : (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Fact label="Uptime (30 days)">
            <span className="font-semibold tabular-nums">{uptimeText(host.uptimePercent)}</span>
          </Fact>
          <Fact label="Last heartbeat">{timeAgo(host.lastHeartbeatAt, now)}</Fact>
          <Fact label="Listings">{host.listings}</Fact>
          <Fact label="Running instances">{host.liveInstances}</Fact>
          <Fact label="Downtime (30 days)">
            <span className="tabular-nums" data-testid="host-downtime">
              {host.downtime.minutes} min
              {host.downtime.notChargedMinutes > 0
                ? ` · ${host.downtime.notChargedMinutes} renter min not charged`
                : ''}
            </span>
          </Fact>
        </dl>
      )}

      {readiness.headline || readiness.gpus.length > 0 || readiness.notes.length > 0 ? (
        <div
          className="grid gap-1 rounded-md bg-muted px-3 py-2 text-sm"
          data-testid="host-readiness"
        >
          {readiness.headline ? (
            <p className="font-medium text-warning-text">{readiness.headline}</p>
          ) : null}
          {readiness.gpus.map((line) => (
            <p key={line} className="text-warning-text">
              {line}
            </p>
          ))}
          {readiness.notes.map((line) => (
            <p key={line} className="text-muted-foreground">
              {line}
            </p>
          ))}
        </div>
      ) : null}

      {awaiting ? null : (
        <div className="grid gap-1 text-sm">
          {gpus.length > 0 ? (
            <ul className="grid gap-0.5" aria-label={`GPUs of ${host.name}`}>
              {gpus.map((gpu) => (
                <li key={gpu} className="font-medium">
                  {gpu}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-warning-text">
              No GPUs reported{host.gpuError ? `: ${host.gpuError}` : '.'}
            </p>
          )}
          {host.listingProblems.length > 0 ? (
            <ul
              className="grid gap-0.5 text-warning-text"
              aria-label={`Listings not rentable on ${host.name}`}
            >
              {host.listingProblems.map((p) => (
                <li key={p.listingId}>
                  {p.model} listing #{p.listingId} is not rentable: {p.problem}
                </li>
              ))}
            </ul>
          ) : null}
          <p className="flex flex-wrap gap-x-4 gap-y-1 text-muted-foreground">
            {host.cpuCores !== null ? (
              <span className="inline-flex items-center gap-1">
                <Cpu className="h-3.5 w-3.5" aria-hidden />
                {host.cpuCores} CPU cores
              </span>
            ) : null}
            {host.memoryTotalBytes !== null ? (
              <span className="inline-flex items-center gap-1">
                <MemoryStick className="h-3.5 w-3.5" aria-hidden />
                {bytesAsGb(host.memoryTotalBytes)} RAM
              </span>
            ) : null}
            {host.diskFreeBytes !== null ? (
              <span className="inline-flex items-center gap-1">
                <HardDrive className="h-3.5 w-3.5" aria-hidden />
                {bytesAsGb(host.diskFreeBytes)} free
              </span>
            ) : null}
            {host.accelerator && host.accelerator !== 'kvm' ? (
              <span className="text-warning-text">
                {host.accelerator === 'tcg' ? 'Software emulation (no KVM)' : 'No KVM'}
              </span>
            ) : null}
          </p>
        </div>
      )}
    </li>
  );
}
