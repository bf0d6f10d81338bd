import { slugify } from '../../../../shared/content/markup';
import type { ApiEndpoint, HttpMethod } from '../../../../shared/content/public-api';
import { CodeBlock } from '../../../components/content/code-block';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';

const METHOD_CLASSES: Record<HttpMethod, string> = {
  GET: 'bg-accent text-accent-foreground',
  POST: 'bg-primary text-primary-foreground',
  PATCH: 'bg-secondary text-secondary-foreground',
  DELETE: 'bg-danger text-white',
};

export const endpointAnchor = (endpoint: ApiEndpoint) =>
  slugify(`${endpoint.method} ${endpoint.path}`);

export function EndpointCard({ endpoint }: { endpoint: ApiEndpoint }) {
  const id = endpointAnchor(endpoint);
  return (
    <Card id={id} className="grid min-w-0 scroll-mt-24 gap-4 p-5 sm:p-6">
      <h3 className="flex flex-wrap items-center gap-3">
        <span
          className={cn(
            'rounded-md px-2 py-0.5 font-mono text-xs font-bold',
            METHOD_CLASSES[endpoint.method],
          )}
        >
          {endpoint.method}
        </span>
        <code className="font-mono text-base font-semibold break-all">/api/v1{endpoint.path}</code>
      </h3>
      <p className="text-muted-foreground">{endpoint.summary}</p>
      <p className="text-sm">
        Key permission: <strong>{endpoint.permission}</strong>
        {endpoint.permission === 'read' ? ' (or write or admin)' : ' (or admin)'}
      </p>
      {endpoint.notes ? <p className="text-sm text-muted-foreground">{endpoint.notes}</p> : null}
      {endpoint.body ? (
        <div className="grid gap-2">
          <h4 className="text-sm font-semibold">Request body</h4>
          <CodeBlock
            label={`Request body of ${endpoint.method} ${endpoint.path}`}
            code={endpoint.body}
          />
        </div>
      ) : null}
      {endpoint.response ? (
        <div className="grid gap-2">
          <h4 className="text-sm font-semibold">Response</h4>
          <CodeBlock
            label={`Response of ${endpoint.method} ${endpoint.path}`}
            code={endpoint.response}
          />
        </div>
      ) : null}
    </Card>
  );
}
