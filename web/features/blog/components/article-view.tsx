import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { MarkupView } from '../../../components/content/markup-view';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import type { Article } from '../article-types';
import { ArticleMeta, TagList } from './article-meta';
import { CategoryBadge } from './category-icon';

export function BackToBlog() {
  return (
    <Link
      href="/blog"
      className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-link hover:underline"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden />
      Back to Blog
    </Link>
  );
}

/** The call to action every article ends with. */
export function ReadyToGetStarted() {
  return (
    <Card className="mt-12 grid gap-4 p-6 text-center sm:p-8">
      <h2 className="text-2xl font-bold">Ready to Get Started?</h2>
      <p className="text-muted-foreground">
        Join thousands of users already benefiting from distributed GPU computing
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link href="/marketplace" className={buttonClasses('primary', 'lg')}>
          Rent GPUs Now
        </Link>
        <Link href="/provider-signup" className={buttonClasses('provider', 'lg')}>
          Become a Provider
        </Link>
      </div>
    </Card>
  );
}

export function ArticleView({ article }: { article: Article }) {
  return (
    <article className="mx-auto grid w-full max-w-3xl gap-5 px-4 py-8 sm:px-6">
      <BackToBlog />
      <header className="grid gap-4">
        <CategoryBadge category={article.category} />
        <h1 className="text-3xl leading-tight font-extrabold tracking-tight sm:text-4xl">
          {article.title}
        </h1>
        <p className="text-lg text-muted-foreground">{article.excerpt}</p>
        <ArticleMeta article={article} />
        <TagList tags={article.tags} />
      </header>
      <hr className="border-border" />
      <MarkupView source={article.content} />
      <ReadyToGetStarted />
    </article>
  );
}

export function PostNotFound() {
  return (
    <div className="mx-auto grid max-w-xl justify-items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">Post Not Found</h1>
      <p className="text-muted-foreground">The blog post you're looking for doesn't exist.</p>
      <Link href="/blog" className={buttonClasses('primary', 'md')}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Back to Blog
      </Link>
    </div>
  );
}
