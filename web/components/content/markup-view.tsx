import { Fragment, type ReactNode, useMemo } from 'react';
import { Link } from 'wouter';
import {
  type Block,
  type Inline,
  parseInline,
  parseMarkup,
  slugify,
} from '../../../shared/content/markup';
import { cn } from '../../lib/cn';

export const linkClasses = 'font-medium text-link underline underline-offset-2 hover:no-underline';

function InlineParts({ parts }: { parts: Inline[] }) {
  return (
    <>
      {parts.map((part, index) => {
        const key = `${index}-${part.kind}`;
        switch (part.kind) {
          case 'strong':
            return (
              <strong key={key} className="font-semibold">
                {part.text}
              </strong>
            );
          case 'code':
            return (
              <code key={key} className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.9em]">
                {part.text}
              </code>
            );
          case 'link':
            return part.href.startsWith('/') ? (
              <Link key={key} href={part.href} className={linkClasses}>
                {part.text}
              </Link>
            ) : (
              <a key={key} href={part.href} className={linkClasses}>
                {part.text}
              </a>
            );
          default:
            return <Fragment key={key}>{part.text}</Fragment>;
        }
      })}
    </>
  );
}

/** One line of the simple markup (`code`, **strong**, [links](/x)) without its block. */
export function InlineMarkup({ text }: { text: string }) {
  const parts = useMemo(() => parseInline(text), [text]);
  return <InlineParts parts={parts} />;
}

const HEADINGS = {
  2: 'h2',
  3: 'h3',
  4: 'h4',
  5: 'h5',
} as const;

const HEADING_CLASSES: Record<number, string> = {
  1: 'mt-10 text-2xl font-bold tracking-tight',
  2: 'mt-8 text-xl font-semibold',
  3: 'mt-6 text-lg font-semibold',
};

const textOf = (parts: Inline[]) => parts.map((part) => part.text).join('');

function renderBlock(
  block: Block,
  index: number,
  headingOffset: 1 | 2,
  anchors: boolean,
): ReactNode {
  const key = `${index}-${block.kind}`;
  switch (block.kind) {
    case 'heading': {
      const Tag = HEADINGS[(block.level + headingOffset) as keyof typeof HEADINGS];
      const id = anchors && block.level === 1 ? slugify(textOf(block.content)) : undefined;
      return (
        <Tag key={key} id={id} className={cn(HEADING_CLASSES[block.level], id && 'scroll-mt-24')}>
          <InlineParts parts={block.content} />
        </Tag>
      );
    }
    case 'bold':
      return (
        <p key={key} className="mt-5 font-semibold text-foreground">
          <InlineParts parts={block.content} />
        </p>
      );
    case 'list': {
      const ListTag = block.ordered ? 'ol' : 'ul';
      return (
        <ListTag
          key={key}
          className={cn('mt-3 grid gap-2 pl-6', block.ordered ? 'list-decimal' : 'list-disc')}
        >
          {block.items.map((item, itemIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed text, items never move
            <li key={itemIndex} className="pl-1">
              <InlineParts parts={item} />
            </li>
          ))}
        </ListTag>
      );
    }
    default:
      return (
        <p key={key} className="mt-4 leading-7">
          <InlineParts parts={block.content} />
        </p>
      );
  }
}

interface MarkupViewProps {
  source: string;
  /**
   * How many levels the page's own headings take: with the page's h1 above, '#' in the
   * text becomes h2 (offset 1); below a section's h2 it becomes h3 (offset 2).
   */
  headingOffset?: 1 | 2;
  /** Gives top-level headings ids (see outline() in shared/content/markup.ts). */
  anchors?: boolean;
  className?: string;
}

/** Renders the simple markup as React elements (shared/content/markup.ts); never as HTML. */
export function MarkupView({
  source,
  headingOffset = 1,
  anchors = false,
  className,
}: MarkupViewProps) {
  const blocks = useMemo(() => parseMarkup(source), [source]);
  return (
    <div className={cn('text-base text-foreground', className)}>
      {blocks.map((block, index) => renderBlock(block, index, headingOffset, anchors))}
    </div>
  );
}
