import { type ReactNode, useEffect } from 'react';
import { Link } from 'wouter';
import { CONTACT_EMAILS, SUPPORT_PROMISES } from '../../../../shared/content/company';
import { slugify } from '../../../../shared/content/markup';
import { API_ERROR_EXAMPLE, API_STATUS_CODES } from '../../../../shared/content/public-api';
import { CodeBlock } from '../../../components/content/code-block';
import { HttpMethod } from '../../../components/content/http-method';
import { linkClasses } from '../../../components/content/markup-view';
import { Card } from '../../../components/ui/card';
import { apiView, firstPlainRead } from '../../../lib/api-document';
import { FieldList } from './field-list';
import { OperationCard } from './operation-card';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid min-w-0 gap-4">
      <h2 id={id} className="scroll-mt-24 text-2xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const th = 'p-3 text-left font-semibold';

const groupAnchor = (name: string) => `api-group-${slugify(name)}`;

/** The public API's reference, rendered from its OpenAPI document (docs/openapi.json). */
export function ApiReference() {
  const view = apiView();
  const authExample = firstPlainRead(view)?.example;
  // The page loads after the address does, so the browser's own jump to #anchor finds nothing.
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);
  return (
    <div className="grid gap-12">
      <Section id="api-base" title="Base URL">
        <p className="text-muted-foreground">
          All endpoints live under the versioned base path{' '}
          <code className="font-mono text-foreground">{view.basePath}</code>. Requests and responses
          are JSON; money is in US dollars as decimal strings such as{' '}
          <code className="font-mono text-foreground">"2.50"</code>.
        </p>
        <CodeBlock label="The base URL" code={view.baseUrl} />
      </Section>

      <Section id="api-auth" title="Authentication">
        <p className="text-muted-foreground">
          Every endpoint requires an API key, sent as a bearer token in the Authorization header.
          Generate keys on the API Keys tab of your{' '}
          <Link href="/settings" className={linkClasses}>
            settings
          </Link>
          . A key is shown once when you create it; we store only a hash. Each key has a permission
          (read, write or admin) and can be revoked at any time. Each endpoint below names the
          permission it needs; an admin key may call them all.
        </p>
        {view.auth?.description ? (
          <p className="text-sm text-muted-foreground">
            Scheme: <code className="font-mono text-foreground">{view.auth.scheme}</code>.{' '}
            {view.auth.description}
          </p>
        ) : null}
        {authExample ? <CodeBlock label="Authenticated request" code={authExample} /> : null}
      </Section>

      <Section id="api-limits" title="Rate limits">
        <p className="text-muted-foreground">
          Limits apply per key per hour. Over the limit the API answers 429, with RateLimit and
          Retry-After headers that tell you how long to wait.
        </p>
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-sm">
            <thead className="bg-muted">
              <tr>
                <th scope="col" className={th}>
                  Tier
                </th>
                <th scope="col" className={th}>
                  Requests per hour
                </th>
              </tr>
            </thead>
            <tbody>
              {view.tiers.map((tier) => (
                <tr key={tier.name} className="border-t border-border">
                  <th scope="row" className="p-3 text-left font-medium">
                    {tier.name}
                  </th>
                  <td className="p-3">{tier.requestsPerHour.toLocaleString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="api-endpoints" title="Endpoints">
        <Card className="p-4">
          <nav aria-label="Endpoints by group" className="grid gap-4 sm:grid-cols-2">
            {view.groups.map((group) => (
              <div key={group.name} className="grid min-w-0 content-start gap-1">
                <a href={`#${groupAnchor(group.name)}`} className="font-semibold hover:underline">
                  {group.name}
                </a>
                <ul className="grid gap-1 text-sm">
                  {group.operations.map((operation) => (
                    <li key={operation.id} className="flex min-w-0 items-center gap-2">
                      <HttpMethod method={operation.method} />
                      <a
                        href={`#${operation.id}`}
                        className="min-w-0 font-mono break-all text-link hover:underline"
                      >
                        {operation.path}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </Card>
        {view.groups.map((group) => (
          <section
            key={group.name}
            aria-labelledby={groupAnchor(group.name)}
            className="mt-4 grid min-w-0 gap-4"
          >
            <div className="grid gap-1">
              <h3 id={groupAnchor(group.name)} className="scroll-mt-24 text-xl font-semibold">
                {group.name}
              </h3>
              {group.description ? (
                <p className="text-muted-foreground">{group.description}</p>
              ) : null}
            </div>
            {group.operations.map((operation) => (
              <OperationCard key={operation.id} operation={operation} basePath={view.basePath} />
            ))}
          </section>
        ))}
      </Section>

      <Section id="api-status" title="Status codes">
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-sm">
            <thead className="bg-muted">
              <tr>
                <th scope="col" className={th}>
                  Code
                </th>
                <th scope="col" className={th}>
                  Meaning
                </th>
              </tr>
            </thead>
            <tbody>
              {API_STATUS_CODES.map((row) => (
                <tr key={row.code} className="border-t border-border">
                  <th scope="row" className="p-3 text-left font-mono font-medium">
                    {row.code}
                  </th>
                  <td className="p-3">{row.meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="api-errors" title="Errors">
        <p className="text-muted-foreground">
          Every error has the same body: a stable upper-case <code className="font-mono">code</code>
          , a readable <code className="font-mono">message</code> and, where useful,{' '}
          <code className="font-mono">details</code>. For example, renting with too little credit:
        </p>
        <CodeBlock label="Error body example" code={API_ERROR_EXAMPLE} />
        {view.errorBody ? (
          <FieldList label="Fields of the error body" fields={view.errorBody.fields} />
        ) : null}
      </Section>

      <Section id="api-support" title="Support">
        <p className="text-muted-foreground">
          Questions about the API? Write to{' '}
          <a href={`mailto:${CONTACT_EMAILS.api}`} className={linkClasses}>
            {CONTACT_EMAILS.api}
          </a>
          ; we answer within {SUPPORT_PROMISES.apiSupportResponse}. For step-by-step guides, see the{' '}
          <Link href="/documentation" className={linkClasses}>
            documentation
          </Link>
          .
        </p>
      </Section>
    </div>
  );
}
