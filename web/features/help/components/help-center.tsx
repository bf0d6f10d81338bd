import { CreditCard, type LucideIcon, Rocket, Search, Wrench } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { linkClasses } from '../../../components/content/markup-view';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { HELP_CATEGORIES, type HelpCategoryId } from '../faqs';
import { countFaqs, searchFaqs } from '../search-faqs';
import { FaqCategory } from './faq-category';

const QUICK_CARDS: { id: HelpCategoryId; title: string; text: string; icon: LucideIcon }[] = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    text: 'Sign in, add credits and rent your first GPU.',
    icon: Rocket,
  },
  {
    id: 'billing',
    title: 'Billing',
    text: 'Packages, escrow, early stops and refunds.',
    icon: CreditCard,
  },
  {
    id: 'technical',
    title: 'Technical',
    text: 'SSH, storage, data and the API.',
    icon: Wrench,
  },
];

/** Search, quick cards and the four expandable categories of questions. */
export function HelpCenter() {
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<HelpCategoryId>>(new Set());
  // While searching every category with answers is open unless the reader closes it.
  const [closedInSearch, setClosedInSearch] = useState<ReadonlySet<HelpCategoryId>>(new Set());
  const searchId = useId();
  const results = searchFaqs(HELP_CATEGORIES, query);
  const searching = query.trim() !== '';
  const found = countFaqs(results);

  function toggle(id: HelpCategoryId) {
    const flip = (current: ReadonlySet<HelpCategoryId>) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    };
    if (searching) setClosedInSearch(flip);
    else setExpanded(flip);
  }

  function search(text: string) {
    setQuery(text);
    setClosedInSearch(new Set());
  }

  function open(id: HelpCategoryId) {
    search('');
    setExpanded((current) => new Set(current).add(id));
    requestAnimationFrame(() => {
      const target = document.getElementById(`help-${id}`);
      target?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      target?.querySelector('button')?.focus({ preventScroll: true });
    });
  }

  return (
    <div className="grid gap-10">
      <search className="relative block max-w-2xl">
        <label htmlFor={searchId} className="sr-only">
          Search help articles
        </label>
        <Search
          className="pointer-events-none absolute top-1/2 left-3 h-5 w-5 -translate-y-1/2 text-muted-foreground"
          aria-hidden
        />
        <Input
          id={searchId}
          type="search"
          placeholder="Search, e.g. refund, SSH, GST"
          value={query}
          onChange={(event) => search(event.target.value)}
          className="h-12 pl-11 text-base"
        />
      </search>

      <section aria-labelledby="help-quick" className="grid gap-4">
        <h2 id="help-quick" className="sr-only">
          Quick help
        </h2>
        <div className="grid gap-4 sm:grid-cols-3">
          {QUICK_CARDS.map(({ id, title, text, icon: Icon }) => (
            <button
              key={id}
              type="button"
              onClick={() => open(id)}
              className="grid h-full content-start gap-2 rounded-xl border border-border bg-card p-5 text-left text-card-foreground shadow-sm transition-colors hover:bg-muted/60"
            >
              <Icon className="h-6 w-6 text-link" aria-hidden />
              <span className="font-semibold">{title}</span>
              <span className="text-sm text-muted-foreground">{text}</span>
            </button>
          ))}
        </div>
      </section>

      <section aria-labelledby="help-faqs" className="grid gap-4">
        <h2 id="help-faqs" className="text-2xl font-bold">
          Frequently Asked Questions
        </h2>
        <p role="status" className={searching ? 'text-sm text-muted-foreground' : 'sr-only'}>
          {searching ? `${found} ${found === 1 ? 'answer' : 'answers'} for "${query.trim()}"` : ''}
        </p>
        {results.length === 0 ? (
          <Card className="p-6 text-muted-foreground">
            No answers match your search. Try other words, or{' '}
            <Link href="/contact-us" className={linkClasses}>
              contact our support team
            </Link>
            .
          </Card>
        ) : (
          results.map((category) => (
            <FaqCategory
              key={category.id}
              category={category}
              expanded={searching ? !closedInSearch.has(category.id) : expanded.has(category.id)}
              onToggle={() => toggle(category.id)}
            />
          ))
        )}
      </section>
    </div>
  );
}
