import { describe, expect, it } from 'vitest';
import { HELP_CATEGORIES } from './faqs';
import { countFaqs, searchFaqs } from './search-faqs';

describe('help center questions', () => {
  it('has the four categories in order with at least six questions each', () => {
    expect(HELP_CATEGORIES.map((c) => c.title)).toEqual([
      'Getting Started',
      'Billing & Payments',
      'Technical Support',
      'Account Management',
    ]);
    for (const category of HELP_CATEGORIES) expect(category.faqs.length).toBeGreaterThanOrEqual(6);
  });
});

describe('searchFaqs', () => {
  it('keeps everything for a blank search', () => {
    expect(searchFaqs(HELP_CATEGORIES, '   ')).toEqual(HELP_CATEGORIES);
  });

  it('matches questions case-insensitively', () => {
    const result = searchFaqs(HELP_CATEGORIES, 'GST');
    expect(result.map((c) => c.id)).toContain('billing');
    expect(searchFaqs(HELP_CATEGORIES, 'gst')).toEqual(result);
    expect(result.flatMap((c) => c.faqs).some((f) => f.question === 'Do you charge GST?')).toBe(
      true,
    );
  });

  it('matches answers by their visible text, not by link targets or markup', () => {
    const escrow = searchFaqs(HELP_CATEGORIES, 'ESCROW');
    expect(countFaqs(escrow)).toBeGreaterThan(0);
    for (const faq of escrow.flatMap((c) => c.faqs)) {
      expect(`${faq.question} ${faq.answer}`.toLowerCase()).toContain('escrow');
    }
    // "/payments" is only a link target; the visible text says "Add Credits".
    expect(countFaqs(searchFaqs(HELP_CATEGORIES, '/payments'))).toBe(0);
    expect(countFaqs(searchFaqs(HELP_CATEGORIES, 'rentgpu rent <gpu-id>'))).toBe(1);
  });

  it('drops categories without a match and finds nothing for nonsense', () => {
    const result = searchFaqs(HELP_CATEGORIES, 'sign-in code');
    expect(result.map((c) => c.id)).toEqual(['account']);
    expect(searchFaqs(HELP_CATEGORIES, 'zzqx-no-such-words')).toEqual([]);
  });
});
