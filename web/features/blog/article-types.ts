/** The ten categories, in the order of the ten articles (blog.test.ts). */
export const BLOG_CATEGORIES = [
  'Cost Optimization',
  'Provider Success',
  'Research',
  'Business Growth',
  'Gaming',
  'Medical Research',
  'Enterprise',
  'Climate Tech',
  'Security',
  'Future Tech',
] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

/** An article as written; its read time is computed from the text (see articles/index.ts). */
export interface ArticleSource {
  id: number;
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  date: string;
  category: BlogCategory;
  tags: string[];
  featured: boolean;
  /** The body in the simple markup of shared/content/markup.ts. */
  content: string;
}

export interface Article extends ArticleSource {
  readTime: string;
}
