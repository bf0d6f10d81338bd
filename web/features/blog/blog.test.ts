import { describe, expect, it } from 'vitest';
import { countWords, parseMarkup } from '../../../shared/content/markup';
import { BLOG_CATEGORIES } from './article-types';
import { ARTICLES } from './articles';
import { findArticleBySlug, splitFeatured } from './find-article';

describe('the ten articles', () => {
  it('are in the order of the categories with ids 1 to 10, the first featured', () => {
    expect(ARTICLES.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ARTICLES.map((a) => a.category)).toEqual([...BLOG_CATEGORIES]);
    expect(ARTICLES.filter((a) => a.featured).map((a) => a.id)).toEqual([1]);
  });

  it('keep the two known slugs and read times', () => {
    expect(ARTICLES[8]).toMatchObject({
      slug: 'security-data-protection-distributed-computing',
      category: 'Security',
      readTime: '9 min read',
    });
    expect(ARTICLES[9]).toMatchObject({
      slug: 'future-distributed-computing-vision',
      category: 'Future Tech',
      readTime: '10 min read',
    });
    expect(ARTICLES[7]?.title).toMatch(/Weather Prediction/i);
  });

  it('have unique, URL-safe slugs and at least two tags', () => {
    const slugs = ARTICLES.map((a) => a.slug);
    expect(new Set(slugs).size).toBe(10);
    for (const article of ARTICLES) {
      expect(article.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(article.tags.length).toBeGreaterThanOrEqual(2);
      expect(article.excerpt.length).toBeGreaterThan(60);
      expect(article.author).not.toBe('');
      expect(Number.isNaN(Date.parse(article.date))).toBe(false);
    }
  });

  it('are articles of substance that link to the marketplace and provider sign-up and end with the call to action', () => {
    for (const article of ARTICLES) {
      expect(countWords(article.content), article.slug).toBeGreaterThanOrEqual(800);
      expect(article.content).toContain('](/marketplace)');
      expect(article.content).toContain('](/provider-signup)');
      const blocks = parseMarkup(article.content);
      const last = blocks.at(-1);
      expect(last?.kind, article.slug).toBe('paragraph');
      const lastText = JSON.stringify(last);
      expect(lastText).toContain('/marketplace');
      expect(lastText).toContain('/provider-signup');
      expect(blocks.at(-2)?.kind).toBe('heading');
    }
  });

  it('use only headings a page can nest under its title (no skipped levels)', () => {
    for (const article of ARTICLES) {
      let previous = 1;
      for (const block of parseMarkup(article.content)) {
        if (block.kind !== 'heading') continue;
        expect(block.level - previous, `${article.slug}`).toBeLessThanOrEqual(1);
        previous = block.level;
      }
    }
  });

  it('never link outside the site except by e-mail', () => {
    for (const article of ARTICLES) {
      for (const [, href] of article.content.matchAll(/\]\(([^)]+)\)/g)) {
        expect(href).toMatch(/^(\/|mailto:)/);
        if (href?.startsWith('/blog/')) expect(findArticleBySlug(href.slice(6))).not.toBeNull();
      }
    }
  });
});

describe('findArticleBySlug', () => {
  it('finds an article by its exact slug and nothing else', () => {
    expect(findArticleBySlug('future-distributed-computing-vision')?.id).toBe(10);
    expect(findArticleBySlug('security-data-protection-distributed-computing')?.id).toBe(9);
    expect(findArticleBySlug('no-such-post')).toBeNull();
    expect(findArticleBySlug('')).toBeNull();
    expect(findArticleBySlug('Future-Distributed-Computing-Vision')).toBeNull();
  });
});

describe('splitFeatured', () => {
  it('puts the featured article first and the other nine in the grid', () => {
    const { featured, others } = splitFeatured();
    expect(featured?.id).toBe(1);
    expect(others.map((a) => a.id)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
