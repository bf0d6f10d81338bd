import { Link } from 'wouter';
import { CodeBlock } from '../../../components/content/code-block';
import { HttpMethod } from '../../../components/content/http-method';
import { linkClasses } from '../../../components/content/markup-view';
import { buttonClasses } from '../../../components/ui/button';
import { apiView, firstPlainRead } from '../../../lib/api-document';
import { DocSection, TabHeading } from './doc-parts';

/** The documentation's API tab: a short guide, with the endpoints and tiers of the OpenAPI document. */
export function ApiTab() {
  const view = apiView();
  const example = firstPlainRead(view)?.example;
  return (
    <div className="grid gap-8">
      <TabHeading title="API Reference">
        Everything you can do in the web app, you can automate with the public API: list GPUs, rent
        them, check their status and stop them.
      </TabHeading>
      <DocSection
        id="doc-api-key"
        title="1. Get an API key"
        className="grid gap-3 text-muted-foreground"
        headingClassName="text-xl font-semibold text-foreground"
      >
        <p>
          Generate a key on the API Keys tab of your{' '}
          <Link href="/settings" className={linkClasses}>
            settings
          </Link>
          . It is shown once, so store it in a secrets manager or an environment variable. Give each
          key only the permission it needs (read, write or admin), and revoke keys you no longer
          use.
        </p>
      </DocSection>
      <DocSection
        id="doc-api-call"
        title="2. Make a request"
        className="grid min-w-0 gap-3 text-muted-foreground"
        headingClassName="text-xl font-semibold text-foreground"
      >
        <p>
          The API lives under <code className="font-mono text-sm">{view.basePath}</code>. Send your
          key as a bearer token in the Authorization header of every request:
        </p>
        {example ? <CodeBlock label="Example request" code={example} /> : null}
      </DocSection>
      <DocSection id="doc-api-endpoints" title="3. Endpoints" className="grid min-w-0 gap-4">
        {view.groups.map((group) => (
          <div key={group.name} className="grid min-w-0 gap-2">
            <h4 className="font-semibold">{group.name}</h4>
            <ul aria-label={`${group.name} endpoints`} className="grid gap-2">
              {group.operations.map((operation) => (
                <li
                  key={operation.id}
                  className="grid min-w-0 gap-1 rounded-lg border border-border p-3 sm:grid-cols-[minmax(0,18rem)_minmax(0,1fr)] sm:gap-4"
                >
                  <span className="flex min-w-0 items-center gap-2">
                    <HttpMethod method={operation.method} />{' '}
                    <Link
                      href={`/api-reference#${operation.id}`}
                      className="min-w-0 font-mono text-sm font-semibold break-all text-link hover:underline"
                    >
                      {operation.path}
                    </Link>
                  </span>
                  <span className="text-sm text-muted-foreground">{operation.summary}</span>
                </li>
              ))}
            </ul>
          </div>
        ))}
        {view.tiers.length > 0 ? (
          <p className="text-sm text-muted-foreground">
            Limits per key per hour:{' '}
            {view.tiers
              .map((tier) => `${tier.name} ${tier.requestsPerHour.toLocaleString('en-US')}`)
              .join(', ')}
            .
          </p>
        ) : null}
      </DocSection>
      <Link href="/api-reference" className={buttonClasses('primary', 'md', 'w-fit')}>
        Read the full API Reference
      </Link>
    </div>
  );
}
