import { Link } from 'wouter';
import { outline } from '../../../../shared/content/markup';
import { MarkupView } from '../../../components/content/markup-view';
import { Card } from '../../../components/ui/card';
import { useDocumentTitle } from '../../../lib/document-title';
import type { LegalText } from '../legal-text';

const OTHER_PAGES = [
  { href: '/privacy-policy', label: 'Privacy Policy' },
  { href: '/terms-of-service', label: 'Terms of Service' },
  { href: '/cookie-policy', label: 'Cookie Policy' },
];

/** A legal page: title, last change, a table of contents and the text. */
export function LegalDocument({ text }: { text: LegalText }) {
  useDocumentTitle(text.title, text.description);
  const sections = outline(text.content);
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <header className="grid gap-2">
        <h1 className="text-3xl font-bold tracking-tight">{text.title}</h1>
        <p className="text-muted-foreground">Last updated: {text.lastUpdated}</p>
      </header>
      <div className="mt-8 grid gap-10 lg:grid-cols-[16rem_1fr]">
        <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
          <Card className="p-4">
            <h2 className="text-sm font-semibold">On this page</h2>
            <ol className="mt-3 grid gap-1.5 text-sm">
              {sections.map((section) => (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    className="text-muted-foreground hover:text-foreground hover:underline"
                  >
                    {section.title}
                  </a>
                </li>
              ))}
            </ol>
            <h2 className="mt-5 text-sm font-semibold">Related</h2>
            <ul className="mt-3 grid gap-1.5 text-sm">
              {OTHER_PAGES.filter((page) => page.label !== text.title).map((page) => (
                <li key={page.href}>
                  <Link href={page.href} className="text-link hover:underline">
                    {page.label}
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        </nav>
        <MarkupView
          source={text.content}
          anchors
          className="max-w-3xl min-w-0 [&>p:first-child]:mt-0"
        />
      </div>
    </div>
  );
}
