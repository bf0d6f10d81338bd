import { Calendar, Clock, User } from 'lucide-react';
import { cn } from '../../../lib/cn';
import type { Article } from '../article-types';

/** Author, date and read time on one wrapping line. */
export function ArticleMeta({ article, className }: { article: Article; className?: string }) {
  return (
    <ul
      aria-label="Article details"
      className={cn(
        'flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground',
        className,
      )}
    >
      <li className="inline-flex items-center gap-1.5">
        <User className="h-4 w-4" aria-hidden />
        <span className="sr-only">Author: </span>
        {article.author}
      </li>
      <li className="inline-flex items-center gap-1.5">
        <Calendar className="h-4 w-4" aria-hidden />
        <span className="sr-only">Published: </span>
        {article.date}
      </li>
      <li className="inline-flex items-center gap-1.5">
        <Clock className="h-4 w-4" aria-hidden />
        {article.readTime}
      </li>
    </ul>
  );
}

export function TagList({ tags, label = 'Tags' }: { tags: string[]; label?: string }) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li
          key={tag}
          className="rounded-md border border-border px-2 py-0.5 text-xs text-muted-foreground"
        >
          {tag}
        </li>
      ))}
    </ul>
  );
}
