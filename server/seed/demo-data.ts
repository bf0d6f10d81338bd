import { DEMO_USER_EMAIL } from '../../shared/constants';
import { gpuModelInfo, parseMultiGpu } from '../../shared/gpu-models';
import type { DemoMachine } from '../db/schema';
import type { ListingInput, ProviderInput } from './factories';

/** The demo world: who provides what, where, and at which price. */
export interface DemoProvider extends Omit<ProviderInput, 'userId'> {
  companyName: string;
  ownedByDemoUser?: boolean;
  listings: DemoListing[];
}

/**
 * The machines demo listings stand for, as their hosts would report themselves (cores, memory,
 * disk, GPUs, driver and CUDA): each listing's GPU share, disk and versions come from its
 * machine (docs/decisions/024), from a gaming desktop to an 8-GPU HGX node.
 */
const GIB = 1024 ** 3;
const machine = (
  cores: number,
  memoryGb: number,
  gpuCount: number,
  diskTb: number,
  driverVersion: string,
  cudaVersion: string,
): DemoMachine => ({
  cores,
  totalBytes: memoryGb * GIB,
  guestBytes: null,
  gpuCount,
  diskBytes: diskTb * 1024 * GIB,
  driverVersion,
  cudaVersion,
});
export const DEMO_MACHINES = {
  /** A gaming desktop with one card. */
  desktop: machine(8, 32, 1, 1, '535.183.01', '12.2'),
  /** A workstation with two cards. */
  workstation: machine(24, 128, 2, 2, '550.90.07', '12.4'),
  /** A 4-card rig. */
  rig4: machine(32, 192, 4, 4, '550.90.07', '12.4'),
  /** A mining-style rig: many cards, few cores. */
  rig8: machine(24, 96, 8, 2, '535.183.01', '12.2'),
  /** A 4U server of six consumer cards on a 128-core CPU (a renter's whole 16-core VM fits). */
  rack6: machine(128, 1024, 6, 4, '550.90.07', '12.4'),
  /** A 4-GPU data-centre server (PCIe). */
  server4: machine(64, 512, 4, 8, '550.54.15', '12.4'),
  /** An 8-GPU data-centre server (SXM, NVLink). */
  server8: machine(96, 1024, 8, 15, '550.54.15', '12.4'),
  /** An 8× H100 HGX node. */
  hgx: machine(192, 2048, 8, 30, '550.54.15', '12.4'),
} as const;
type MachineName = keyof typeof DEMO_MACHINES;

/**
 * How long a listing has been on the market and the outages its machine had: a history the
 * seed records (demo_host_outages), from which its reliability is measured like a real host's.
 * `outages`: [hours ago it began, minutes it lasted].
 */
export interface DemoHistory {
  listedDaysAgo: number;
  outages: [hoursAgo: number, minutes: number][];
}
export const DEMO_HISTORIES = {
  /** 99.9%: one short blip in three months. */
  solid: { listedDaysAgo: 90, outages: [[290, 25]] },
  /** About 99.5%. */
  good: {
    listedDaysAgo: 60,
    outages: [
      [120, 150],
      [480, 45],
    ],
  },
  /** About 98%. */
  fair: {
    listedDaysAgo: 45,
    outages: [
      [30, 240],
      [200, 420],
      [600, 180],
    ],
  },
  /** About 94%: a day and a half down this month. */
  shaky: {
    listedDaysAgo: 40,
    outages: [
      [72, 1_500],
      [400, 700],
      [650, 300],
    ],
  },
  /** Listed yesterday: too little history to say. */
  fresh: { listedDaysAgo: 1, outages: [] },
} satisfies Record<string, DemoHistory>;
type HistoryName = keyof typeof DEMO_HISTORIES;

/**
 * [model, $/h, total units, units left free, status, bandwidth, cooling, machine, history].
 * Units not left free are rented by the seeded renters below, so counts and rentals agree
 * from the first start.
 */
type Row = [
  model: string,
  rate: string,
  total: number,
  available: number,
  status?: ListingInput['status'],
  bandwidth?: string,
  cooling?: string,
  machine?: MachineName,
  history?: HistoryName,
];

/** A seeded listing: what the factory makes, its machine, and the history recorded for it. */
export type DemoListing = Omit<ListingInput, 'providerId'> & { history: DemoHistory };

function rows(
  location: string,
  items: Row[],
  defaults: { machine: MachineName; history: HistoryName },
): DemoListing[] {
  return items.map(
    ([
      model,
      hourlyRate,
      totalCount,
      availableCount,
      status = 'available',
      bandwidth = '10 Gbps',
      cooling = 'Air Cooled',
      machineName = defaults.machine,
      history = defaults.history,
    ]) => {
      const { count, info } = parseMultiGpu(model);
      const single = info ?? gpuModelInfo('RTX 4090');
      const memoryGb = Number.parseInt(single?.memory ?? '24', 10) * count;
      const demoMachine = DEMO_MACHINES[machineName];
      return {
        model,
        memory: `${memoryGb}GB`,
        cudaCores: single ? single.cudaCores * count : null,
        tensorCores: single ? single.tensorCores * count : null,
        location,
        bandwidth,
        hourlyRate,
        status,
        totalCount,
        availableCount,
        cooling,
        powerConsumption: `${(single?.powerWatts ?? 300) * count}W`,
        pcieLanes: '16x',
        additionalSpecs:
          count > 1
            ? `NVLink, ${demoMachine.cores} cores, ${demoMachine.totalBytes / GIB} GB RAM, ${demoMachine.diskBytes / 1024 / GIB} TB NVMe`
            : '',
        demoMachine,
        history: DEMO_HISTORIES[history],
      };
    },
  );
}

export const DEMO_USER = {
  email: DEMO_USER_EMAIL,
  firstName: 'Demo',
  lastName: 'User',
  credits: '100.00',
} as const;

/** Other customers, whose running rentals make the marketplace look lived in. */
export const DEMO_RENTERS = [
  { email: 'priya.raman@example.com', firstName: 'Priya', lastName: 'Raman', credits: '25000.00' },
  {
    email: 'lukas.becker@example.com',
    firstName: 'Lukas',
    lastName: 'Becker',
    credits: '25000.00',
  },
  { email: 'mei.tanaka@example.com', firstName: 'Mei', lastName: 'Tanaka', credits: '25000.00' },
] as const;

export const DEMO_ADMIN = {
  email: 'admin@rentgpu.dev',
  firstName: 'Asha',
  lastName: 'Menon',
} as const;

/**
 * What each demo visitor's own sandbox provider ("Your demo provider", server/seed/demo-visitor.ts)
 * lists: a workstation of their own, new on the market. The seeded "Demo Compute Co." lists
 * other GPUs, so the two never look like copies (issue 42).
 */
export const VISITOR_DEMO_PROVIDER = {
  location: 'San Francisco, USA',
  isVerified: true,
  reputation: '4.8',
  listings: rows(
    'San Francisco, USA',
    [
      ['RTX 4090', '1.45', 4, 4, 'available', '10 Gbps', 'Air Cooled', 'rig4'],
      ['RTX 3090', '0.85', 2, 2, 'available', '10 Gbps', 'Air Cooled', 'workstation'],
      ['A6000', '2.40', 2, 2, 'available', '25 Gbps', 'Air Cooled', 'workstation'],
    ],
    { machine: 'workstation', history: 'fresh' },
  ),
};

export const DEMO_PROVIDERS: DemoProvider[] = [
  {
    companyName: 'Demo Compute Co.',
    location: 'San Jose, USA',
    isVerified: true,
    reputation: '4.8',
    ownedByDemoUser: true,
    listings: rows(
      'San Jose, USA',
      [
        ['RTX 4080', '1.12', 2, 1, 'available', '10 Gbps', 'Air Cooled', 'workstation'],
        ['A40', '2.05', 4, 2, 'available', '25 Gbps'],
        ['4x RTX 4090', '5.40', 1, 1, 'available', '25 Gbps', 'Liquid Cooled', 'rig4', 'fair'],
      ],
      { machine: 'server4', history: 'good' },
    ),
  },
  {
    companyName: 'Nimbus GPU Cloud',
    location: 'Frankfurt, Germany',
    isVerified: true,
    reputation: '4.9',
    listings: rows(
      'Frankfurt, Germany',
      [
        ['H100', '4.50', 8, 5, 'available', '100 Gbps', 'Liquid Cooled', 'hgx'],
        ['A100 80GB', '3.20', 6, 6, 'available', '25 Gbps', 'Liquid Cooled'],
        ['8x A100 80GB', '22.00', 2, 1, 'available', '100 Gbps', 'Liquid Cooled'],
        ['4x H100', '16.50', 2, 2, 'available', '100 Gbps', 'Liquid Cooled', 'server4'],
        ['RTX 4080', '1.10', 4, 4, 'available', '10 Gbps', 'Air Cooled', 'rig4', 'good'],
      ],
      { machine: 'server8', history: 'solid' },
    ),
  },
  {
    companyName: 'Sakura AI Datacenter',
    location: 'Tokyo, Japan',
    isVerified: true,
    reputation: '4.7',
    listings: rows(
      'Tokyo, Japan',
      [
        ['A100 40GB', '2.60', 4, 1, 'available', '25 Gbps', 'Air Cooled', 'server4'],
        ['V100', '2.00', 6, 6, 'available', '10 Gbps', 'Air Cooled', 'server8', 'fair'],
        ['RTX 4070', '0.70', 6, 6, 'available', '10 Gbps', 'Air Cooled', 'rack6'],
        ['8x H100', '34.00', 1, 1, 'maintenance', '100 Gbps', 'Liquid Cooled', 'hgx'],
      ],
      { machine: 'server4', history: 'good' },
    ),
  },
  {
    companyName: 'Indus Compute',
    location: 'Mumbai, India',
    isVerified: true,
    reputation: '4.6',
    listings: rows(
      'Mumbai, India',
      [
        ['RTX 3070', '0.50', 8, 8, 'available', '1 Gbps', 'Air Cooled', 'rig8', 'shaky'],
        ['RTX 3080', '0.65', 6, 2, 'available', '1 Gbps', 'Air Cooled', 'rig8', 'shaky'],
        ['T4', '0.55', 10, 10, 'available', '10 Gbps', 'Air Cooled', 'server8'],
        ['A40', '2.20', 4, 4, 'available', '25 Gbps'],
        ['4x A100 40GB', '15.00', 1, 1, 'available', '100 Gbps', 'Hybrid Cooled'],
        ['H100', '3.95', 4, 3, 'available', '25 Gbps', 'Liquid Cooled', 'hgx', 'shaky'],
      ],
      { machine: 'server4', history: 'fair' },
    ),
  },
  {
    companyName: 'Northern Lights Compute',
    location: 'Stockholm, Sweden',
    isVerified: true,
    reputation: '4.5',
    listings: rows(
      'Stockholm, Sweden',
      [
        ['RTX 4090', '1.50', 3, 3, 'available', '10 Gbps', 'Liquid Cooled', 'rig4'],
        ['A100 80GB', '3.40', 2, 0, 'available', '25 Gbps', 'Liquid Cooled'],
        ['H100', '4.80', 2, 2, 'maintenance', '100 Gbps', 'Liquid Cooled', 'hgx'],
        ['H100', '4.20', 4, 4, 'available', '100 Gbps', 'Liquid Cooled', 'hgx', 'fresh'],
      ],
      { machine: 'server8', history: 'good' },
    ),
  },
  {
    companyName: 'Maple Mining Co.',
    location: 'Montreal, Canada',
    isVerified: false,
    reputation: '4.2',
    listings: rows(
      'Montreal, Canada',
      [
        ['RTX 3090', '0.80', 12, 12, 'available', '1 Gbps'],
        ['RTX 3080', '0.60', 10, 10, 'available', '1 Gbps'],
        ['RTX 4080', '1.05', 2, 1, 'available', '10 Gbps', 'Air Cooled', 'workstation'],
        ['RTX 4070', '0.75', 4, 4, 'available', '10 Gbps', 'Air Cooled', 'rig4'],
      ],
      { machine: 'rig8', history: 'fair' },
    ),
  },
  {
    companyName: 'Lumen Cloud',
    location: 'Ashburn, USA',
    isVerified: true,
    reputation: '4.9',
    listings: rows(
      'Ashburn, USA',
      [
        ['H100', '4.35', 8, 6, 'available', '100 Gbps', 'Liquid Cooled'],
        ['8x H100', '33.60', 2, 2, 'available', '100 Gbps', 'Liquid Cooled'],
        ['A100 80GB', '2.95', 8, 8, 'available', '100 Gbps', 'Liquid Cooled', 'server8'],
        ['2x A100 80GB', '5.80', 2, 2, 'available', '100 Gbps', 'Liquid Cooled', 'server8'],
      ],
      { machine: 'hgx', history: 'solid' },
    ),
  },
  {
    companyName: 'Garage GPUs',
    location: 'Austin, USA',
    isVerified: false,
    reputation: '4.0',
    listings: rows(
      'Austin, USA',
      [
        ['RTX 4090', '0.98', 1, 1, 'available', '1 Gbps', 'Air Cooled', 'desktop', 'shaky'],
        ['RTX 3070', '0.28', 1, 1, 'available', '1 Gbps', 'Air Cooled', 'desktop', 'fair'],
        ['2x RTX 4090', '2.10', 1, 1, 'available', '1 Gbps', 'Air Cooled', 'workstation', 'fresh'],
      ],
      { machine: 'desktop', history: 'shaky' },
    ),
  },
  {
    companyName: 'Andes Compute',
    location: 'Santiago, Chile',
    isVerified: true,
    reputation: '4.4',
    listings: rows(
      'Santiago, Chile',
      [
        ['RTX 4090', '1.25', 6, 6, 'available', '10 Gbps', 'Air Cooled', 'rig8', 'good'],
        ['A100 80GB', '2.75', 4, 4, 'available', '25 Gbps', 'Liquid Cooled', 'server4', 'fresh'],
        ['H100', '4.05', 2, 2, 'available', '25 Gbps', 'Liquid Cooled', 'server8', 'fair'],
      ],
      { machine: 'server4', history: 'good' },
    ),
  },
];
