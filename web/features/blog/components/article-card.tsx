import { ArrowRight } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import type { Article } from '../article-types';
import { ArticleMeta, TagList } from './article-meta';
import { CategoryArt, CategoryBadge } from './category-icon';

function ReadArticleLink({ article }: { article: Article }) {
  return (
    <Link
      href={`/blog/${article.slug}`}
      aria-label={`Read Article: ${article.title}`}
      className={buttonClasses('outline', 'sm', 'w-fit')}
    >
      Read Article
      <ArrowRight className="h-4 w-4" aria-hidden />
    </Link>
  );
}

/** One of the nine articles in the grid: title, excerpt, category, meta, first two tags. */
export function ArticleCard({ article }: { article: Article }) {
  return (
    <Card className="flex flex-col gap-4 p-6">
      <CategoryBadge category={article.category} />
      <h3 className="text-lg leading-snug font-semibold">{article.title}</h3>
      <p className="text-sm text-muted-foreground">{article.excerpt}</p>
      <ArticleMeta article={article} />
      <TagList tags={article.tags.slice(0, 2)} />
      <div className="mt-auto pt-2">
        <ReadArticleLink article={article} />
      </div>
    </Card>
  );
}

/** The first article, shown large above the grid. */
export function FeaturedArticle({ article }: { article: Article }) {
  return (
    <Card className="grid gap-6 overflow-hidden p-6 md:grid-cols-[2fr_3fr] md:p-8">
      <CategoryArt category={article.category} />
      <div className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center gap-2">
          <span className="rounded-full bg-primary px-2.5 py-1 text-xs font-semibold text-primary-foreground">
            Featured
          </span>
          <CategoryBadge category={article.category} />
        </div>
        <h2 className="text-2xl leading-tight font-bold sm:text-3xl">{article.title}</h2>
        <p className="text-muted-foreground">{article.excerpt}</p>
        <ArticleMeta article={article} />
        <TagList tags={article.tags.slice(0, 2)} />
        <Link
          href={`/blog/${article.slug}`}
          aria-label={`Read Article: ${article.title}`}
          className={buttonClasses('primary', 'md', 'w-fit')}
        >
          Read Article
          <ArrowRight className="h-4 w-4" aria-hidden />
        </Link>
      </div>
    </Card>
  );
}
