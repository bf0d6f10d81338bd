import { TriangleAlert } from 'lucide-react';
import type { CreateHostResponse } from '../../../../shared/contracts/hosts';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog, type ItemDialogProps } from '../../../components/ui/dialog';
import { cn } from '../../../lib/cn';
import { useFormatDate } from '../../../lib/date-format';

/** A value to paste on the host, under its title, with its copy button. */
function Copyable({
  title,
  value,
  label,
  testId,
  className,
}: {
  title: string;
  value: string;
  label: string;
  testId: string;
  /** The box's alignment and padding. */
  className: string;
}) {
  return (
    <div className="grid gap-1.5">
      <p className="font-medium">{title}</p>
      <div className={cn('flex gap-1 rounded-md bg-muted', className)}>
        <code className="min-w-0 flex-1 font-mono text-xs break-all" data-testid={testId}>
          {value}
        </code>
        <CopyButton value={value} label={label} />
      </div>
    </div>
  );
}

/**
 * The one-time token of a new host (or a new token), with the install command to paste into
 * a root shell on the machine. Shown once: the server keeps only the token's hash.
 */
export function EnrolmentDialog({ item: shown, onClose }: ItemDialogProps<CreateHostResponse>) {
  const formatDate = useFormatDate();
  return (
    <Dialog
      open={shown !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Connect Your Host"
      description={shown ? `Install the agent on ${shown.host.name}.` : ''}
      className="max-w-2xl"
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {shown ? (
        <div className="grid gap-4 text-sm">
          <ol className="grid list-decimal gap-1 pl-5">
            <li>Open a shell on the GPU host (Ubuntu 22.04+, with Node.js 20 or newer).</li>
            <li>
              Run this command in your home folder (it asks sudo for root). It checks the host and
              the agent’s SHA-256, installs QEMU and the agent as the rentgpu-agent service, run as
              its own user, not root, downloads and verifies the Ubuntu 22.04 image your renters’
              machines start from, and enrols the host.
            </li>
            <li>The host then shows online here, with its GPUs.</li>
          </ol>
          <Copyable
            title="Install command"
            value={shown.enrolment.installCommand}
            label="install command"
            testId="install-command"
            className="items-start p-3"
          />
          <Copyable
            title="Enrolment token"
            value={shown.enrolment.token}
            label="enrolment token"
            testId="enrolment-token"
            className="items-center px-3 py-2"
          />
          <p className="flex items-start gap-2 rounded-md border border-warning-text/40 p-3">
            <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0 text-warning-text" aria-hidden />
            <span>
              The token works once and expires at{' '}
              <span className="font-medium">
                {formatDate(shown.enrolment.expiresAt, { withTime: true })}
              </span>{' '}
              (in 1 hour). It is shown only now; if it expires before the host enrols, use New token
              on the host.
            </span>
          </p>
        </div>
      ) : null}
    </Dialog>
  );
}
