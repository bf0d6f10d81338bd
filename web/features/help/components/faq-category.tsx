import { ChevronDown } from 'lucide-react';
import { MarkupView } from '../../../components/content/markup-view';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import type { HelpCategory } from '../faqs';

interface FaqCategoryProps {
  category: HelpCategory;
  expanded: boolean;
  onToggle: () => void;
}

/** One category: a heading whose button expands and collapses its questions and answers. */
export function FaqCategory({ category, expanded, onToggle }: FaqCategoryProps) {
  const panelId = `help-${category.id}-panel`;
  return (
    <Card id={`help-${category.id}`} className="scroll-mt-24">
      <h3>
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={onToggle}
          className="flex w-full items-center justify-between gap-4 rounded-xl p-5 text-left hover:bg-muted/50"
        >
          <span className="grid gap-1">
            <span className="text-lg font-semibold">{category.title}</span>
            <span className="text-sm font-normal text-muted-foreground">
              {category.description} ({category.faqs.length}{' '}
              {category.faqs.length === 1 ? 'question' : 'questions'})
            </span>
          </span>
          <ChevronDown
            className={cn('h-5 w-5 shrink-0 transition-transform', expanded && 'rotate-180')}
            aria-hidden
          />
        </button>
      </h3>
      <div id={panelId} hidden={!expanded} className="border-t border-border px-5 pb-5">
        <dl className="grid max-w-4xl gap-5 pt-5">
          {category.faqs.map((faq) => (
            <div key={faq.question} className="grid gap-1">
              <dt className="font-semibold">{faq.question}</dt>
              <dd>
                <MarkupView source={faq.answer} className="text-sm [&>p]:mt-0" />
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </Card>
  );
}
