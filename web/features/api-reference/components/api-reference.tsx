import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { CONTACT_EMAILS, SUPPORT_PROMISES } from '../../../../shared/content/company';
import {
  API_ENDPOINTS,
  API_ERROR_EXAMPLE,
  API_RATE_TIERS,
  API_STATUS_CODES,
  PUBLIC_API_BASE_URL,
} from '../../../../shared/content/public-api';
import { CodeBlock } from '../../../components/content/code-block';
import { linkClasses } from '../../../components/content/markup-view';
import { Card } from '../../../components/ui/card';
import { EndpointCard, endpointAnchor } from './endpoint-card';

const AUTH_EXAMPLE = `curl ${PUBLIC_API_BASE_URL}/account \\
  -H "Authorization: Bearer $RENTGPU_API_KEY"`;

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

export function ApiReference() {
  return (
    <div className="grid gap-12">
      <Section id="api-base" title="Base URL">
        <p className="text-muted-foreground">
          All endpoints live under the versioned base path{' '}
          <code className="font-mono text-foreground">/api/v1</code>. Requests and responses are
          JSON; money is in US dollars as decimal strings such as{' '}
          <code className="font-mono text-foreground">"2.50"</code>.
        </p>
        <CodeBlock label="Base URL" code={PUBLIC_API_BASE_URL} />
      </Section>

      <Section id="api-auth" title="Authentication">
        <p className="text-muted-foreground">
          Every endpoint requires an API key, sent as a bearer token in the Authorization header.
          Generate keys on the API Keys tab of your{' '}
          <Link href="/settings" className={linkClasses}>
            settings
          </Link>
          . A key is shown once when you create it; we store only a hash. Each key has a permission
          (read, write or admin) and can be revoked at any time.
        </p>
        <CodeBlock label="Authenticated request" code={AUTH_EXAMPLE} />
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
              {API_RATE_TIERS.map((tier) => (
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
          <ul className="grid gap-1 text-sm">
            {API_ENDPOINTS.map((endpoint) => (
              <li key={endpointAnchor(endpoint)}>
                <a
                  href={`#${endpointAnchor(endpoint)}`}
                  className="font-mono break-all text-link hover:underline"
                >
                  {endpoint.method} {endpoint.path}
                </a>
              </li>
            ))}
          </ul>
        </Card>
        {API_ENDPOINTS.map((endpoint) => (
          <EndpointCard key={endpointAnchor(endpoint)} endpoint={endpoint} />
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
