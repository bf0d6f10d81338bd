import { Download, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  AGENT_API_PREFIX,
  AGENT_HEARTBEAT_INTERVAL_MS,
  AGENT_UPDATE_INTERVAL_MS,
} from '../../../../shared/contracts/agent-protocol';
import { installCommand } from '../../../../shared/contracts/hosts';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import { buttonClasses } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Tabs } from '../../../components/ui/tabs';

/** Agent configuration defaults, as the guide shows them. */
export const AGENT_HEARTBEAT_SECONDS = AGENT_HEARTBEAT_INTERVAL_MS / 1000;
export const AGENT_UPDATE_INTERVAL_SECONDS = AGENT_UPDATE_INTERVAL_MS / 1000;

/** Host requirements, in the words e2e/provider-dashboard.spec.ts checks. */
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

const DOWNLOADS = [
  { href: '/api/providers/agent/download', label: 'Installer script' },
  { href: '/api/providers/agent/download-script', label: 'Agent script' },
] as const;

function Downloads() {
  return (
    <div className="grid gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap gap-2">
        {DOWNLOADS.map((item) => (
          <a
            key={item.href}
            href={item.href}
            download
            className={buttonClasses('outline', 'sm')}
            aria-describedby="agent-downloads-note"
          >
            <Download className="h-4 w-4" aria-hidden />
            {item.label}
          </a>
        ))}
      </div>
      <p id="agent-downloads-note" className="flex items-start gap-2 text-sm text-muted-foreground">
        <Info className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden />
        <span>
          The install command downloads both for you. To read the installer first, download it, then
          run{' '}
          <Code>
            sudo bash install.sh --server {'<server URL>'} --token-stdin {"<<< '<token>'"}
          </Code>{' '}
          on the host.
        </span>
      </p>
    </div>
  );
}

function QuickStart({ origin }: { origin: string }) {
  const steps: { key: string; body: ReactNode }[] = [
    {
      key: 'check',
      body: 'Check that the host meets the requirements (see the Requirements tab).',
    },
    {
      key: 'add-host',
      body: (
        <>
          Add a host first: <span className="font-medium">Add Host</span> in the Hosts section of
          this page gives you a one-time enrolment token (valid 1 hour) and the install command with
          it.
        </>
      ),
    },
    {
      key: 'install',
      body: (
        <div className="grid gap-1.5">
          <span>Run the install command as root on the GPU host. It looks like this:</span>
          <Code>{installCommand(origin, '<token>')}</Code>
          <span>
            It checks the host, checks the agent against its published SHA-256, installs QEMU and
            the agent as the rentgpu-agent system service (run as its own user, not root), downloads
            and verifies the default OS image (skip it with --skip-image), and starts it. The token
            goes to the installer on standard input, never as an argument.
          </span>
        </div>
      ),
    },
    {
      key: 'start',
      body: (
        <>
          The agent registers at <Code>{`${origin}${AGENT_API_PREFIX}`}</Code> and sends a heartbeat
          every {AGENT_HEARTBEAT_SECONDS} seconds; the host then shows online in Hosts, with its
          GPUs.
        </>
      ),
    },
    {
      key: 'assign',
      body: <>Edit this listing and choose the host, so that its rentals run on your machine.</>,
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

function ConfigRow({
  label,
  name,
  value,
  copy,
}: {
  label: string;
  name?: string;
  value: string;
  copy?: boolean;
}) {
  return (
    <div className="flex flex-col gap-1 rounded-md bg-muted px-3 py-2">
      <dt className="flex flex-wrap items-baseline gap-x-2 text-sm text-muted-foreground">
        <span>{label}</span>
        {name ? <span className="font-mono text-xs break-all">{name}</span> : null}
      </dt>
      <dd className="flex min-w-0 items-center gap-1">
        <span className="font-mono text-sm break-all">{value}</span>
        {copy ? <CopyButton value={value} label={label} /> : null}
      </dd>
    </div>
  );
}

function Configuration({ origin }: { origin: string }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        The installer writes these to <Code>/etc/rentgpu-agent/agent.env</Code> (readable by root
        only); change a value there and run <Code>systemctl restart rentgpu-agent</Code>.
      </p>
      <dl className="grid gap-2">
        <ConfigRow label="Server URL" name="RENTGPU_SERVER_URL" value={origin} copy />
        <ConfigRow label="Agent endpoint" value={`${origin}${AGENT_API_PREFIX}`} copy />
        <ConfigRow
          label="Enrolment token"
          name="AGENT_ENROLL_TOKEN_FILE"
          value="/var/lib/rentgpu-agent/enrol-token (one-time, from Add Host)"
        />
        <ConfigRow label="State folder" name="AGENT_STATE_DIR" value="/var/lib/rentgpu-agent" />
        <ConfigRow
          label="Heartbeat interval"
          name="AGENT_HEARTBEAT_INTERVAL_MS"
          value={`${AGENT_HEARTBEAT_SECONDS} s`}
        />
        <ConfigRow
          label="Update interval"
          name="AGENT_UPDATE_INTERVAL_MS"
          value={`${AGENT_UPDATE_INTERVAL_SECONDS} s`}
        />
      </dl>
      <p className="text-sm text-muted-foreground">
        The heartbeat tells the marketplace the host is online and brings the agent its work; every
        update interval the agent reads the GPUs again (<Code>nvidia-smi</Code>). A host silent for
        90 seconds is offline. The token is needed once: after enrolling, the agent keeps its
        credential in the state folder and deletes the token file.
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
              content: <QuickStart origin={origin} />,
            },
            { value: 'requirements', label: 'Requirements', content: <Requirements /> },
            {
              value: 'configuration',
              label: 'Configuration',
              content: <Configuration origin={origin} />,
            },
          ]}
        />
      ) : null}
    </Dialog>
  );
}
