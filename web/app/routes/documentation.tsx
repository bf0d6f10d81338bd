import { Link } from 'wouter';
import { Card } from '../../components/ui/card';
import { Page } from '../../components/ui/page';
import { DocumentationTabs } from '../../features/documentation/components/documentation-tabs';
import { WebhooksGuide } from '../../features/documentation/components/webhooks-guide';

const MORE = [
  { href: '/marketplace', label: 'Marketplace', text: 'Browse and rent GPUs' },
  { href: '/payments', label: 'Add Credits', text: 'Buy prepaid credits' },
  { href: '/settings', label: 'Settings', text: 'API keys and preferences' },
  { href: '/provider-signup', label: 'Become a Provider', text: 'Apply to list your GPUs' },
  { href: '/blog', label: 'Blog', text: 'Guides and insights' },
];

export default function DocumentationPage() {
  return (
    <Page
      title="Documentation"
      description="How RentGPU works, how to rent your first GPU, the public API, and how providers list their hardware."
    >
      <div className="mt-8 grid gap-12">
        <DocumentationTabs />
        <WebhooksGuide />
        <section aria-labelledby="doc-more" className="grid gap-4">
          <h2 id="doc-more" className="text-xl font-bold">
            More Resources
          </h2>
          <Card className="p-2">
            <ul className="grid gap-1 sm:grid-cols-2 lg:grid-cols-5">
              {MORE.map((item) => (
                <li key={item.href}>
                  <Link href={item.href} className="grid rounded-lg p-3 hover:bg-muted">
                    <span className="font-medium">{item.label}</span>
                    <span className="text-sm text-muted-foreground">{item.text}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        </section>
      </div>
    </Page>
  );
}
