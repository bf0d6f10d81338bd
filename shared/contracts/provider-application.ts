import { z } from 'zod';
import { isWebAddress } from '../rules/web-address';

/**
 * The provider application: one contract for the form on /provider-signup and for
 * POST /api/providers, plus the admin review calls.
 */

export const PROVIDER_APPLICATION_TEXT = {
  title: 'Become a GPU Provider',
  submit: 'Submit Provider Application',
  submitting: 'Submitting Application...',
  successTitle: 'Provider Application Submitted',
  success:
    'Your provider application has been submitted and will be reviewed within 2-3 business days.',
  failedTitle: 'Submission Failed',
  failed: 'Failed to submit provider application. Please try again.',
  gpuModelsHint: 'Please select at least one GPU model',
  securityMeasuresHint: 'Please select at least one security measure',
  reviewTime: 'Applications are reviewed within 2-3 business days.',
  rejectReasonRequired: 'Please give a reason for the rejection.',
} as const;

/** The form's field messages, word for word (docs/rules.md, Screens and texts). */
export const PROVIDER_APPLICATION_MESSAGES = {
  companyName: 'Company name must be at least 2 characters',
  contactPersonName: 'Contact person name is required',
  email: 'Valid email address is required',
  phone: 'Valid phone number is required',
  website: 'Website must be a full address starting with http:// or https://',
  country: 'Country is required',
  state: 'State/Province is required',
  city: 'City is required',
  address: 'Complete address is required',
  postalCode: 'Postal code is required',
  timezone: 'Timezone is required',
  powerCapacity: 'Power capacity is required',
  internetSpeed: 'Internet speed is required',
  uptimeGuarantee: 'Uptime guarantee is required',
  totalGpuCount: 'Must have at least 1 GPU',
  gpuModels: 'At least one GPU model is required',
  totalVramCapacity: 'Total VRAM capacity is required',
  securityMeasures: 'At least one security measure is required',
  dataRetentionPolicy: 'Data retention policy is required',
  minimumRentalDuration: 'Minimum rental duration is required',
  paymentTerms: 'Payment terms are required',
  cancellationPolicy: 'Cancellation policy is required',
  supportHours: 'Support hours are required',
  responseTime: 'Response time SLA is required',
  maintenanceSchedule: 'Maintenance schedule is required',
  termsAccepted: 'You must accept the terms and conditions',
  privacyAccepted: 'You must accept the privacy policy',
  dataProcessingAccepted: 'You must accept data processing terms',
} as const;

/** Shared upper bounds for free text: the form's maxLength and the server's check. */
export const PROVIDER_APPLICATION_LIMITS = {
  short: 100,
  medium: 200,
  long: 2000,
  email: 254,
  phone: 30,
  gpuCount: 100_000,
  reason: 1000,
} as const;

export const BUSINESS_TYPES = [
  'individual',
  'small_business',
  'enterprise',
  'data_center',
] as const;
export const FACILITY_TYPES = [
  'home_office',
  'colocation',
  'data_center',
  'cloud_provider',
] as const;
export const COOLING_TYPES = ['air', 'liquid', 'immersion', 'hybrid'] as const;
export const PRICING_MODELS = ['hourly', 'daily', 'monthly', 'custom'] as const;

export const BUSINESS_TYPE_LABELS: Record<(typeof BUSINESS_TYPES)[number], string> = {
  individual: 'Individual',
  small_business: 'Small Business',
  enterprise: 'Enterprise',
  data_center: 'Data Center',
};
export const FACILITY_TYPE_LABELS: Record<(typeof FACILITY_TYPES)[number], string> = {
  home_office: 'Home Office',
  colocation: 'Colocation',
  data_center: 'Data Center',
  cloud_provider: 'Cloud Provider',
};
export const COOLING_TYPE_LABELS: Record<(typeof COOLING_TYPES)[number], string> = {
  air: 'Air Cooling',
  liquid: 'Liquid Cooling',
  immersion: 'Immersion Cooling',
  hybrid: 'Hybrid',
};
export const PRICING_MODEL_LABELS: Record<(typeof PRICING_MODELS)[number], string> = {
  hourly: 'Hourly',
  daily: 'Daily',
  monthly: 'Monthly',
  custom: 'Custom',
};

export const GPU_MODELS = [
  'RTX 4090',
  'RTX 4080',
  'RTX 4070 Ti',
  'RTX 4070',
  'RTX 4060 Ti',
  'RTX 4060',
  'RTX 3090 Ti',
  'RTX 3090',
  'RTX 3080 Ti',
  'RTX 3080',
  'RTX 3070 Ti',
  'RTX 3070',
  'H100 80GB',
  'H100 94GB',
  'A100 80GB',
  'A100 40GB',
  'V100 32GB',
  'V100 16GB',
  'Tesla T4',
  'Tesla P100',
  'Quadro RTX 8000',
  'Quadro RTX 6000',
] as const;

export const SECURITY_MEASURES = [
  '24/7 Physical Security',
  'Biometric Access Control',
  'CCTV Monitoring',
  'Fire Suppression System',
  'Environmental Monitoring',
  'Network Security',
  'Data Encryption',
  'Access Logging',
  'Background Checks',
  'Secure Disposal',
] as const;

export const CERTIFICATIONS = [
  'SOC 2 Type II',
  'ISO 27001',
  'PCI DSS',
  'HIPAA',
  'GDPR Compliant',
  'FedRAMP',
  'SSAE 18',
  'CSA STAR',
  'NIST Cybersecurity Framework',
] as const;

export const APPLICATION_TIMEZONES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Berlin',
  'Asia/Tokyo',
  'Asia/Kolkata',
] as const;

const M = PROVIDER_APPLICATION_MESSAGES;
const L = PROVIDER_APPLICATION_LIMITS;
const tooLong = (max: number) => ({ message: `Please keep this under ${max} characters.` });

/** Text of at least `min` characters after trimming, at most `max`. */
const text = (min: number, message: string, max: number) =>
  z.string({ message }).trim().min(min, { message }).max(max, tooLong(max));

/** Optional free text; blank becomes empty. */
const optional = (max: number) => z.string().trim().max(max, tooLong(max)).default('');

const accepted = (message: string) => z.boolean({ message }).refine((v) => v, { message });

export const providerApplicationBody = z.object({
  // Company Information
  companyName: text(2, M.companyName, L.short),
  businessType: z.enum(BUSINESS_TYPES).default('individual'),
  registrationNumber: optional(L.short),
  taxId: optional(L.short),
  // Contact Information
  contactPersonName: text(2, M.contactPersonName, L.short),
  email: z
    .string({ message: M.email })
    .trim()
    .toLowerCase()
    .max(L.email, { message: M.email })
    .pipe(z.email({ message: M.email })),
  phone: text(10, M.phone, L.phone),
  website: z
    .string()
    .trim()
    .max(L.medium, tooLong(L.medium))
    .refine((v) => v === '' || isWebAddress(v), { message: M.website })
    .default(''),
  // Location & Address
  country: text(2, M.country, L.short),
  state: text(2, M.state, L.short),
  city: text(2, M.city, L.short),
  address: text(10, M.address, L.medium),
  postalCode: text(3, M.postalCode, 20),
  timezone: z.enum(APPLICATION_TIMEZONES, { message: M.timezone }),
  // Infrastructure Details
  facilityType: z.enum(FACILITY_TYPES).default('home_office'),
  powerCapacity: text(1, M.powerCapacity, L.short),
  coolingType: z.enum(COOLING_TYPES).default('air'),
  internetSpeed: text(1, M.internetSpeed, L.short),
  uptimeGuarantee: text(1, M.uptimeGuarantee, L.short),
  // Hardware Inventory
  totalGpuCount: z
    .number({ message: M.totalGpuCount })
    .int({ message: M.totalGpuCount })
    .min(1, { message: M.totalGpuCount })
    .max(L.gpuCount, { message: `At most ${L.gpuCount} GPUs` }),
  gpuModels: z
    .array(z.enum(GPU_MODELS), { message: M.gpuModels })
    .min(1, { message: M.gpuModels })
    .refine((list) => new Set(list).size === list.length, { message: 'Each GPU model once' }),
  totalVramCapacity: text(1, M.totalVramCapacity, L.short),
  additionalHardware: optional(L.long),
  // Security & Compliance
  securityMeasures: z
    .array(z.enum(SECURITY_MEASURES), { message: M.securityMeasures })
    .min(1, { message: M.securityMeasures })
    .refine((list) => new Set(list).size === list.length, { message: 'Each measure once' }),
  certifications: z
    .array(z.enum(CERTIFICATIONS))
    .refine((list) => new Set(list).size === list.length, { message: 'Each certification once' })
    .default([]),
  dataRetentionPolicy: text(10, M.dataRetentionPolicy, L.long),
  // Pricing & Terms
  pricingModel: z.enum(PRICING_MODELS).default('hourly'),
  minimumRentalDuration: text(1, M.minimumRentalDuration, L.short),
  paymentTerms: text(1, M.paymentTerms, L.medium),
  cancellationPolicy: text(10, M.cancellationPolicy, L.long),
  // Support & Maintenance
  supportHours: text(1, M.supportHours, L.short),
  responseTime: text(1, M.responseTime, L.short),
  maintenanceSchedule: text(10, M.maintenanceSchedule, L.long),
  // Legal Agreements
  termsAccepted: accepted(M.termsAccepted),
  privacyAccepted: accepted(M.privacyAccepted),
  dataProcessingAccepted: accepted(M.dataProcessingAccepted),
});
/** What the form holds and sends. */
export type ProviderApplicationInput = z.input<typeof providerApplicationBody>;
/** What the server stores. */
export type ProviderApplication = z.output<typeof providerApplicationBody>;

/** The form's starting values. */
export const PROVIDER_APPLICATION_DEFAULTS = {
  companyName: '',
  businessType: 'individual',
  registrationNumber: '',
  taxId: '',
  contactPersonName: '',
  email: '',
  phone: '',
  website: '',
  country: '',
  state: '',
  city: '',
  address: '',
  postalCode: '',
  timezone: 'UTC',
  facilityType: 'home_office',
  powerCapacity: '',
  coolingType: 'air',
  internetSpeed: '',
  uptimeGuarantee: '',
  totalGpuCount: 1,
  gpuModels: [],
  totalVramCapacity: '',
  additionalHardware: '',
  securityMeasures: [],
  certifications: [],
  dataRetentionPolicy: '',
  pricingModel: 'hourly',
  minimumRentalDuration: '',
  paymentTerms: '',
  cancellationPolicy: '',
  supportHours: '',
  responseTime: '',
  maintenanceSchedule: '',
  termsAccepted: false,
  privacyAccepted: false,
  dataProcessingAccepted: false,
} satisfies Required<ProviderApplicationInput>;

export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/**
 * An application as its applicant and the admins see it. `application` is the stored
 * (already parsed) form, shown as it was saved.
 */
export const providerApplicationView = z.object({
  id: z.string(),
  userId: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  application: z.record(z.string(), z.unknown()),
  rejectionReason: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  providerId: z.number().nullable(),
  createdAt: z.string(),
});
export type ProviderApplicationView = Omit<
  z.infer<typeof providerApplicationView>,
  'application'
> & {
  application: ProviderApplication;
};

/** GET /api/provider-applications/mine: the newest application, or null. */
export const myProviderApplicationResponse = z.object({
  application: providerApplicationView.nullable(),
});
export interface MyProviderApplicationResponse {
  application: ProviderApplicationView | null;
}

export const listProviderApplicationsResponse = z.object({
  applications: z.array(providerApplicationView),
});
export interface ListProviderApplicationsResponse {
  applications: ProviderApplicationView[];
}

export const applicationIdParam = z.object({ id: z.uuid({ message: 'Not a valid id' }) });

export const rejectApplicationBody = z.object({
  reason: z
    .string({ message: PROVIDER_APPLICATION_TEXT.rejectReasonRequired })
    .trim()
    .min(1, { message: PROVIDER_APPLICATION_TEXT.rejectReasonRequired })
    .max(L.reason, tooLong(L.reason)),
});
export type RejectApplicationBody = z.input<typeof rejectApplicationBody>;
