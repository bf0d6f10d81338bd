import { plainText } from '../../../shared/content/markup';
import type { HelpCategory } from './faqs';

/**
 * The categories whose questions or answers contain the search text, case-insensitively,
 * with only the matching questions. A blank search keeps everything.
 */
export function searchFaqs(categories: readonly HelpCategory[], query: string): HelpCategory[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...categories];
  return categories
    .map((category) => ({
      ...category,
      faqs: category.faqs.filter((faq) =>
        `${faq.question}\n${plainText(faq.answer)}`.toLocaleLowerCase().includes(needle),
      ),
    }))
    .filter((category) => category.faqs.length > 0);
}

export function countFaqs(categories: readonly HelpCategory[]): number {
  return categories.reduce((sum, category) => sum + category.faqs.length, 0);
}
