/**
 * Who we are and how to reach us: the one copy the contact page, the legal pages and the
 * server's mail-to all read, so an address never differs between them.
 */
export const COMPANY = {
  name: 'RentGPU',
  domain: 'rentgpu.dev',
  city: 'Gurugram (Gurgaon)',
  state: 'Haryana',
  country: 'India',
  address: {
    lines: [
      'RentGPU',
      '3rd Floor, Plot 14, Sector 44',
      'Gurugram (Gurgaon), Haryana 122003',
      'India',
    ],
    short: 'Sector 44, Gurugram (Gurgaon), Haryana, India',
  },
  jurisdiction: 'the courts at Gurugram, Haryana, India',
} as const;

export const CONTACT_EMAILS = {
  support: 'support@rentgpu.dev',
  sales: 'sales@rentgpu.dev',
  api: 'api@rentgpu.dev',
  partners: 'partners@rentgpu.dev',
  emergency: 'emergency@rentgpu.dev',
  privacy: 'privacy@rentgpu.dev',
  legal: 'legal@rentgpu.dev',
} as const;

/** Display form and the digits a tel: link dials. */
export interface PhoneNumber {
  display: string;
  tel: string;
}

export const CONTACT_PHONES = {
  support: { display: '+91 124 456 7800', tel: '+911244567800' },
  emergency: { display: '+91 98100 45678', tel: '+919810045678' },
} as const satisfies Record<string, PhoneNumber>;

export const BUSINESS_HOURS = [
  { days: 'Monday - Friday', hours: '9:00 - 18:00 IST' },
  { days: 'Saturday', hours: '10:00 - 16:00 IST' },
  { days: 'Sunday', hours: 'Closed' },
] as const;

/** Support promises, in the words the pages use. */
export const SUPPORT_PROMISES = {
  replyWithin: 'within 24 hours on business days',
  criticalResponse: '4 hours',
  apiSupportResponse: '4-8 hours',
} as const;

/** We have no live chat yet; the buttons the pages show say so instead of doing nothing. */
export const LIVE_CHAT_NOTICE = {
  title: 'Live chat is not available yet',
  description: `Please e-mail ${CONTACT_EMAILS.support} or use the contact form. We reply ${SUPPORT_PROMISES.replyWithin}.`,
} as const;
