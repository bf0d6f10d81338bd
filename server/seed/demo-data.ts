import { DEMO_USER_EMAIL } from '../../shared/constants';
import { gpuModelInfo, parseMultiGpu } from '../../shared/gpu-models';
import type { ListingInput, ProviderInput } from './factories';

/** The demo world: who provides what, where, and at which price. */
export interface DemoProvider extends Omit<ProviderInput, 'userId'> {
  companyName: string;
  ownedByDemoUser?: boolean;
  listings: Omit<ListingInput, 'providerId'>[];
}

/**
 * [model, $/h, total units, units left free, status, bandwidth, cooling]. Units not left free
 * are rented by the seeded renters below, so counts and rentals agree from the first start.
 */
type Row = [
  model: string,
  rate: string,
  total: number,
  available: number,
  status?: ListingInput['status'],
  bandwidth?: string,
  cooling?: string,
];

function rows(location: string, items: Row[]): Omit<ListingInput, 'providerId'>[] {
  return items.map(
    ([
      model,
      hourlyRate,
      totalCount,
      availableCount,
      status = 'available',
      bandwidth = '10 Gbps',
      cooling = 'Air Cooled',
    ]) => {
      const { count, info } = parseMultiGpu(model);
      const single = info ?? gpuModelInfo('RTX 4090');
      const memoryGb = Number.parseInt(single?.memory ?? '24', 10) * count;
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
        additionalSpecs: count > 1 ? 'NVLink, 2x AMD EPYC, 1 TB RAM, 8 TB NVMe' : '',
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

export const DEMO_PROVIDERS: DemoProvider[] = [
  {
    companyName: 'Demo Compute Co.',
    location: 'San Francisco, USA',
    isVerified: true,
    reputation: '4.8',
    ownedByDemoUser: true,
    listings: rows('San Francisco, USA', [
      ['RTX 4090', '1.45', 4, 2],
      ['RTX 3090', '0.85', 2, 2],
      ['A6000', '2.40', 2, 0, 'available', '25 Gbps'],
    ]),
  },
  {
    companyName: 'Nimbus GPU Cloud',
    location: 'Frankfurt, Germany',
    isVerified: true,
    reputation: '4.9',
    listings: rows('Frankfurt, Germany', [
      ['H100', '4.50', 8, 5, 'available', '100 Gbps', 'Liquid Cooled'],
      ['A100 80GB', '3.20', 6, 6, 'available', '25 Gbps', 'Liquid Cooled'],
      ['8x A100 80GB', '22.00', 2, 1, 'available', '100 Gbps', 'Liquid Cooled'],
      ['4x H100', '16.50', 2, 2, 'available', '100 Gbps', 'Liquid Cooled'],
      ['RTX 4080', '1.10', 4, 4],
    ]),
  },
  {
    companyName: 'Sakura AI Datacenter',
    location: 'Tokyo, Japan',
    isVerified: true,
    reputation: '4.7',
    listings: rows('Tokyo, Japan', [
      ['A100 40GB', '2.60', 4, 1, 'available', '25 Gbps'],
      ['V100', '2.00', 6, 6],
      ['RTX 4070', '0.70', 6, 6],
      ['8x H100', '34.00', 1, 1, 'maintenance', '100 Gbps', 'Liquid Cooled'],
    ]),
  },
  {
    companyName: 'Indus Compute',
    location: 'Mumbai, India',
    isVerified: true,
    reputation: '4.6',
    listings: rows('Mumbai, India', [
      ['RTX 3070', '0.50', 8, 8, 'available', '1 Gbps'],
      ['RTX 3080', '0.65', 6, 2, 'available', '1 Gbps'],
      ['T4', '0.55', 10, 10, 'available', '10 Gbps'],
      ['A40', '2.20', 4, 4, 'available', '25 Gbps'],
      ['4x A100 40GB', '15.00', 1, 1, 'available', '100 Gbps', 'Hybrid Cooled'],
    ]),
  },
  {
    companyName: 'Northern Lights Compute',
    location: 'Stockholm, Sweden',
    isVerified: true,
    reputation: '4.5',
    listings: rows('Stockholm, Sweden', [
      ['RTX 4090', '1.50', 3, 3, 'available', '10 Gbps', 'Liquid Cooled'],
      ['A100 80GB', '3.40', 2, 0, 'available', '25 Gbps', 'Liquid Cooled'],
      ['H100', '4.80', 2, 2, 'maintenance', '100 Gbps', 'Liquid Cooled'],
    ]),
  },
  {
    companyName: 'Maple Mining Co.',
    location: 'Montreal, Canada',
    isVerified: false,
    reputation: '4.2',
    listings: rows('Montreal, Canada', [
      ['RTX 3090', '0.80', 12, 12, 'available', '1 Gbps'],
      ['RTX 3080', '0.60', 10, 10, 'available', '1 Gbps'],
      ['RTX 4080', '1.05', 2, 1],
      ['RTX 4070', '0.75', 4, 4],
    ]),
  },
];
