import { Link } from 'wouter';
import {
  API_ENDPOINTS,
  API_RATE_TIERS,
  PUBLIC_API_BASE_URL,
} from '../../../../shared/content/public-api';
import { CodeBlock } from '../../../components/content/code-block';
import { linkClasses } from '../../../components/content/markup-view';
import { buttonClasses } from '../../../components/ui/button';
import { TabHeading } from './doc-parts';

const CURL_EXAMPLE = `curl ${PUBLIC_API_BASE_URL}/gpu-listings \\
  -H "Authorization: Bearer $RENTGPU_API_KEY"`;

export function ApiTab() {
  return (
    <div className="grid gap-8">
      <TabHeading title="API Reference">
        Everything you can do in the web app, you can automate with the public API: list GPUs, rent
        them, check their status and stop them.
      </TabHeading>
      <section aria-labelledby="doc-api-key" className="grid gap-3 text-muted-foreground">
        <h3 id="doc-api-key" className="text-xl font-semibold text-foreground">
          1. Get an API key
        </h3>
        <p>
          Generate a key on the API Keys tab of your{' '}
          <Link href="/settings" className={linkClasses}>
            settings
          </Link>
          . It is shown once, so store it in a secrets manager or an environment variable. Give each
          key only the permission it needs (read, write or admin), and revoke keys you no longer
          use.
        </p>
      </section>
      <section aria-labelledby="doc-api-call" className="grid gap-3 text-muted-foreground">
        <h3 id="doc-api-call" className="text-xl font-semibold text-foreground">
          2. Make a request
        </h3>
        <p>
          The API lives under <code className="font-mono text-sm">/api/v1</code>. Send your key as a
          bearer token in the Authorization header of every request:
        </p>
        <CodeBlock label="Example request" code={CURL_EXAMPLE} />
      </section>
      <section aria-labelledby="doc-api-endpoints" className="grid gap-3">
        <h3 id="doc-api-endpoints" className="text-xl font-semibold">
          3. Endpoints
        </h3>
        <ul className="grid gap-2">
          {API_ENDPOINTS.map((endpoint) => (
            <li
              key={`${endpoint.method} ${endpoint.path}`}
              className="grid gap-1 rounded-lg border border-border p-3 sm:grid-cols-[16rem_1fr] sm:gap-4"
            >
              <code className="font-mono text-sm font-semibold break-all">
                {endpoint.method} {endpoint.path}
              </code>
              <span className="text-sm text-muted-foreground">{endpoint.summary}</span>
            </li>
          ))}
        </ul>
        <p className="text-sm text-muted-foreground">
          Limits per key per hour:{' '}
          {API_RATE_TIERS.map(
            (tier) => `${tier.name} ${tier.requestsPerHour.toLocaleString('en-US')}`,
          ).join(', ')}
          .
        </p>
      </section>
      <Link href="/api-reference" className={buttonClasses('primary', 'md', 'w-fit')}>
        Read the full API Reference
      </Link>
    </div>
  );
}
