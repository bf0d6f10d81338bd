import { Download, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Tabs } from '../../../components/ui/tabs';

/** Agent configuration defaults (spec part 1 section 9). */
export const AGENT_HEARTBEAT_SECONDS = 30;
export const AGENT_UPDATE_INTERVAL_SECONDS = 60;

/** Host requirements, worded as spec part 1 section 9 words them. */
const REQUIREMENTS: { label: string; text: string; why?: string }[] = [
  { label: 'Operating system', text: 'Ubuntu 22.04+' },
  { label: 'Kernel', text: 'Linux kernel 5.15+', why: 'for KVM with GPU passthrough' },
  { label: 'Memory', text: '32GB RAM minimum' },
  { label: 'Storage', text: '500GB+ SSD', why: 'for renters’ virtual machine disks' },
  { label: 'Network', text: '1 Gbps connection' },
  {
    label: 'Firewall',
    text: 'Open ports 22 and 5900-5999',
    why: '22 for SSH, 5900-5999 for virtual machine consoles',
  },
];

function Code({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs break-all">{children}</code>
  );
}

function Downloads() {
  return (
    <div className="grid gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" disabled aria-describedby="agent-release-note">
          <Download className="h-4 w-4" aria-hidden />
          Installer script
        </Button>
        <Button variant="outline" size="sm" disabled aria-describedby="agent-release-note">
          <Download className="h-4 w-4" aria-hidden />
          Agent script
        </Button>
      </div>
      <p id="agent-release-note" className="flex items-start gap-2 text-sm text-muted-foreground">
        <Info className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden />
        <span>
          The agent release is coming soon: the installer and agent scripts are not published yet,
          so there is nothing to download today. The steps and configuration here are the ones they
          will use.
        </span>
      </p>
    </div>
  );
}

function QuickStart({ origin, listingId }: { origin: string; listingId: number }) {
  const steps: { key: string; body: ReactNode }[] = [
    {
      key: 'check',
      body: 'Check that the host meets the requirements (see the Requirements tab).',
    },
    {
      key: 'download',
      body: 'Download the installer script and the agent script onto the GPU host.',
    },
    {
      key: 'install',
      body: 'Run the installer as root; it sets the agent up as a system service.',
    },
    {
      key: 'configure',
      body: (
        <>
          Configure the agent with the server URL <Code>{`${origin}/api/v1`}</Code> and this
          listing’s ID <Code>{listingId}</Code> (see the Configuration tab).
        </>
      ),
    },
    {
      key: 'start',
      body: (
        <>
          Start the agent. It registers at <Code>{`${origin}/api/v1/agents`}</Code> and sends a
          heartbeat every {AGENT_HEARTBEAT_SECONDS} seconds; rentals of this listing then run on
          your host.
        </>
      ),
    },
  ];
  return (
    <div className="grid gap-4">
      <ol className="grid list-decimal gap-2 pl-5 text-sm">
        {steps.map((step) => (
          <li key={step.key}>{step.body}</li>
        ))}
      </ol>
      <Downloads />
    </div>
  );
}

function Requirements() {
  return (
    <ul className="grid gap-2 text-sm" aria-label="Host requirements">
      {REQUIREMENTS.map((item) => (
        <li
          key={item.label}
          className="flex flex-col gap-0.5 rounded-md bg-muted px-3 py-2 sm:flex-row sm:gap-3"
        >
          <span className="text-muted-foreground sm:w-36 sm:shrink-0">{item.label}</span>
          <span>
            <span className="font-medium">{item.text}</span>
            {item.why ? <span className="text-muted-foreground"> ({item.why})</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

function ConfigRow({ label, value, copy }: { label: string; value: string; copy?: boolean }) {
  return (
    <div className="flex flex-col gap-1 rounded-md bg-muted px-3 py-2 sm:flex-row sm:items-center sm:gap-3">
      <dt className="text-sm text-muted-foreground sm:w-40 sm:shrink-0">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1">
        <span className="font-mono text-sm break-all">{value}</span>
        {copy ? <CopyButton value={value} label={label} /> : null}
      </dd>
    </div>
  );
}

function Configuration({ origin, listingId }: { origin: string; listingId: number }) {
  return (
    <div className="grid gap-3">
      <dl className="grid gap-2">
        <ConfigRow label="Server URL" value={`${origin}/api/v1`} copy />
        <ConfigRow label="Agent endpoint" value={`${origin}/api/v1/agents`} copy />
        <ConfigRow label="Listing ID" value={String(listingId)} copy />
        <ConfigRow label="Heartbeat interval" value={`${AGENT_HEARTBEAT_SECONDS} s`} />
        <ConfigRow label="Update interval" value={`${AGENT_UPDATE_INTERVAL_SECONDS} s`} />
      </dl>
      <p className="text-sm text-muted-foreground">
        The heartbeat tells the marketplace the host is online; every update interval the agent
        reports GPU use and the state of running instances.
      </p>
    </div>
  );
}

/** KVM Agent Setup Guide for one listing: Quick Start, Requirements, Configuration. */
export function SetupGuideDialog({
  listing,
  onClose,
}: {
  listing: GpuListingView | null;
  onClose: () => void;
}) {
  const origin = window.location.origin;
  return (
    <Dialog
      open={listing !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="KVM Agent Setup Guide"
      description={
        listing
          ? `Connect the host behind ${listing.model} in ${listing.location} (listing ${listing.id}).`
          : ''
      }
      className="max-w-2xl"
    >
      {listing ? (
        <Tabs
          label="Setup guide sections"
          items={[
            {
              value: 'quick-start',
              label: 'Quick Start',
              content: <QuickStart origin={origin} listingId={listing.id} />,
            },
            { value: 'requirements', label: 'Requirements', content: <Requirements /> },
            {
              value: 'configuration',
              label: 'Configuration',
              content: <Configuration origin={origin} listingId={listing.id} />,
            },
          ]}
        />
      ) : null}
    </Dialog>
  );
}
