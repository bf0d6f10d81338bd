import type { Article } from './article-types';
import { ARTICLES } from './articles';

/** The article at /blog/{slug}, or null for an unknown slug ('Post Not Found'). */
export function findArticleBySlug(
  slug: string,
  articles: readonly Article[] = ARTICLES,
): Article | null {
  return articles.find((article) => article.slug === slug) ?? null;
}

/** The featured article (the first) and the other nine, as the blog index shows them. */
export function splitFeatured(articles: readonly Article[] = ARTICLES): {
  featured: Article | null;
  others: Article[];
} {
  const featured = articles.find((article) => article.featured) ?? articles[0] ?? null;
  return { featured, others: articles.filter((article) => article !== featured) };
}
