import { describe, expect, it } from 'vitest';
import { outline, parseMarkup } from '../../../shared/content/markup';
import { cookiePolicy } from './cookie-policy';
import { privacyPolicy } from './privacy-policy';
import { termsOfService } from './terms-of-service';

/** Every rule and figure the legal pages carry: eligibility, KYC, payments, refunds, cookies. */
describe('legal pages', () => {
  it('terms state the eligibility, KYC, payment, billing, refund, service and liability rules', () => {
    const text = termsOfService.content;
    for (const fact of [
      'at least 18 years old',
      'one account',
      'PAN and Aadhaar',
      'company documents',
      'passport and a proof of address',
      'GST registration',
      'cards, UPI, wallets, net banking and cryptocurrency',
      'USD, EUR, INR and GBP',
      'card payments are not yet available',
      'GST at 18%',
      'billed with proration',
      '$2.50 per rental',
      'within 60 days',
      '7-10 business days',
      'under 5 minutes',
      'within 10 minutes',
      '99.9% for the platform',
      '99.5% for GPU instances',
      '99.95% for the API',
      'within 4 hours',
      'at least 48 hours',
      'more than 4 hours',
      "30 days' notice",
      "7 days' notice",
      'paid us in the 12 months',
      'keep 90%',
      'platform fee is 10%',
      '2-3 business days',
      '24-48 hours',
      '1,000 (Standard), 5,000 (Pro) or 25,000 (Enterprise)',
      'laws of India',
      'Gurugram, Haryana',
      '7 years',
      '3 years after closure',
    ]) {
      expect(text, fact).toContain(fact);
    }
  });

  it('privacy policy names the Indian law, retention periods, rights and age', () => {
    const text = privacyPolicy.content;
    for (const fact of [
      'Digital Personal Data Protection Act, 2023',
      'kept for 7 years',
      'for 3 years after it is closed',
      'aged 18 or older',
      'Data Protection Board of India',
      'Grievance Officer',
      "30 days' notice",
      'PayPal',
      'Gurugram',
    ]) {
      expect(text, fact).toContain(fact);
    }
  });

  it('cookie policy gives every cookie’s duration', () => {
    const text = cookiePolicy.content;
    for (const fact of [
      'rentgpu_session',
      'Duration:** session',
      'up to 1 year',
      'up to 2 years',
      '30-90 days',
    ]) {
      expect(text, fact).toContain(fact);
    }
  });

  it('each page has a table of contents with unique anchors and only internal or mail links', () => {
    for (const page of [termsOfService, privacyPolicy, cookiePolicy]) {
      const sections = outline(page.content);
      expect(sections.length).toBeGreaterThanOrEqual(6);
      expect(new Set(sections.map((s) => s.id)).size).toBe(sections.length);
      for (const [, href] of page.content.matchAll(/\]\(([^)]+)\)/g)) {
        expect(href).toMatch(/^(\/|mailto:)/);
      }
      expect(parseMarkup(page.content)[0]?.kind).toBe('paragraph');
    }
  });
});
