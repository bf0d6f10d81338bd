import { Loader2, Server, Square, Terminal } from 'lucide-react';
import { useState } from 'react';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { formatMoney } from '../../../../shared/rules/currency';
import { formatRuntime, liveCostEstimate } from '../../../../shared/rules/pricing';
import { sshCommand as sshCommandFor } from '../../../../shared/rules/shell-command';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyButton } from '../../../components/ui/copy-button';
import { useFormatDate } from '../../../lib/date-format';
import { rentalCardId } from '../../../lib/instance-links';
import { WebConsoleLink } from '../../../lib/web-console-link';
import { useStopRental } from '../api/stop-rental';
import { runtimeMs } from '../rental-math';

export function ActiveRentalCard({ rental, now }: { rental: RentalView; now: number }) {
  const [confirming, setConfirming] = useState(false);
  const stop = useStopRental();
  const formatDate = useFormatDate();
  const elapsed = runtimeMs(rental, now);
  const cost = Math.min(
    liveCostEstimate(Number(rental.hourlyRate), elapsed),
    Number(rental.totalCost),
  );
  const ready = rental.phase === 'ready' && rental.sshHost && rental.sshPort;
  // Quoted by the shared rule: the host and user come from a provider's host (untrusted).
  const sshCommand = sshCommandFor(
    { user: rental.sshUsername, host: rental.sshHost ?? '', port: rental.sshPort },
    rental.id,
  );

  return (
    <Card
      className="grid scroll-mt-20 gap-4 p-5 outline-none focus:ring-2 focus:ring-primary"
      data-testid="active-rental"
      // The rent confirmation links here (rentalCardHref).
      id={rentalCardId(rental.id)}
      tabIndex={-1}
      aria-label={`${rental.gpuListing.model} rental ${rental.id}`}
      role="group"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="font-semibold">{rental.gpuListing.model}</h3>
          <p className="text-sm text-muted-foreground">
            {rental.provider.companyName} · {rental.gpuListing.location}
          </p>
        </div>
        <div className="flex gap-2">
          {rental.isDemoHost ? <Badge tone="info">Demo host</Badge> : null}
          {ready ? (
            <Badge tone="success">Running</Badge>
          ) : (
            <Badge tone="warning">
              <Loader2 className="h-3 w-3 animate-spin" aria-hidden /> Provisioning
            </Badge>
          )}
        </div>
      </div>
      {ready ? (
        <div className="grid gap-2 rounded-lg bg-muted p-3 font-mono text-sm">
          <div className="flex items-center justify-between gap-2">
            <span className="min-w-0 [overflow-wrap:anywhere]">
              <span className="text-muted-foreground">Host </span>
              <span data-testid="ssh-host">{rental.sshHost}</span>
            </span>
            <CopyButton value={rental.sshHost ?? ''} label="SSH host" />
          </div>
          <div className="flex items-center justify-between gap-2">
            <span>
              <span className="text-muted-foreground">Port </span>
              <span data-testid="ssh-port">{rental.sshPort}</span>
            </span>
            <CopyButton value={String(rental.sshPort)} label="SSH port" />
          </div>
          {/* Wraps on a phone instead of being cut off or widening the page. */}
          <div className="flex items-start justify-between gap-2">
            <p className="flex min-w-0 items-start gap-1.5 text-xs text-muted-foreground">
              <Terminal className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden />
              <code className="min-w-0 [overflow-wrap:anywhere]" data-testid="ssh-command">
                {sshCommand}
              </code>
            </p>
            <CopyButton value={sshCommand} label="SSH command" />
          </div>
          {rental.sshHostKeyFingerprint ? (
            <p className="text-xs text-muted-foreground" data-testid="ssh-host-key">
              Host key{' '}
              <code className="[overflow-wrap:anywhere] text-foreground">
                {rental.sshHostKeyFingerprint}
              </code>
            </p>
          ) : null}
        </div>
      ) : (
        <p className="flex items-center gap-2 rounded-lg bg-muted p-3 text-sm text-muted-foreground">
          <Server className="h-4 w-4" aria-hidden /> Your instance is being provisioned (2-3
          minutes). SSH details appear here when it is ready; if it is not ready within 10 minutes
          it is cancelled and fully refunded.
          {rental.provisioningStep ? (
            <span data-testid="provisioning-step"> Step: {rental.provisioningStep}.</span>
          ) : null}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Runtime</dt>
          <dd>{formatRuntime(elapsed)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Cost so far</dt>
          <dd data-testid="live-cost">
            {formatMoney(cost)}
            {rental.computeChargeNote ? (
              <span className="block text-xs text-muted-foreground" data-testid="charge-note">
                {rental.computeChargeNote}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Rate</dt>
          <dd>{formatMoney(rental.hourlyRate)}/hr</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Booked until</dt>
          <dd>{formatDate(rental.endsAt, { withTime: true })}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-2">
        {/* The same console as a VM's (the server names its page while it can open). */}
        {rental.webConsole ? <WebConsoleLink href={rental.webConsole} /> : null}
        <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
          <Square className="h-4 w-4" aria-hidden /> Stop
        </Button>
      </div>
      <ConfirmDialog
        item={confirming ? rental : null}
        onClose={() => setConfirming(false)}
        title="Stop instance"
        description="Are you sure you want to stop this instance? This action cannot be undone."
        confirmLabel="Stop Instance"
        pendingLabel="Stopping..."
        action={stop}
        success={() => ({ title: 'Instance Stopped' })}
        failureTitle="Error"
        fallback="Failed to stop instance. Please try again."
      >
        <p className="text-sm text-muted-foreground">
          You pay for the time used so far ({formatMoney(cost)}, by the second); the rest of the{' '}
          {formatMoney(rental.totalCost)} you booked goes back to your credits.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
