import { useState } from 'react';
import { CodeBlock } from '../../../components/content/code-block';
import { HttpMethod } from '../../../components/content/http-method';
import { InlineMarkup, linkClasses } from '../../../components/content/markup-view';
import { Card } from '../../../components/ui/card';
import type { OperationView, ResponseView } from '../../../lib/openapi-view';
import { FieldList } from './field-list';

const STATUS_CLASSES: Record<string, string> = {
  '2': 'Success',
  '3': 'Redirect',
  '4': 'Client error',
  '5': 'Server error',
};

function Subheading({ children }: { children: string }) {
  return <h5 className="text-sm font-semibold">{children}</h5>;
}

/** Response fields, rendered when opened: the page stays light until a reader asks. */
function ResponseFields({ label, fields }: { label: string; fields: ResponseView['fields'] }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="min-w-0" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-sm font-medium text-link">Response fields</summary>
      {open ? (
        <div className="mt-2">
          <FieldList label={label} fields={fields} />
        </div>
      ) : null}
    </details>
  );
}

function ResponseItem({
  operation,
  response,
}: {
  operation: OperationView;
  response: ResponseView;
}) {
  const meaning = response.description ?? STATUS_CLASSES[response.status[0] ?? ''] ?? 'Answer';
  return (
    <li className="grid min-w-0 gap-2">
      <p className="text-sm">
        <code className="mr-2 rounded bg-muted px-1.5 py-0.5 font-mono font-semibold">
          {response.status}
        </code>
        {meaning}
        {response.schemaName === 'Error' ? (
          <>
            {': the '}
            <a href="#api-errors" className={linkClasses}>
              error body
            </a>
          </>
        ) : response.fields.length === 0 ? (
          ', no body'
        ) : null}
      </p>
      {response.schemaName !== 'Error' && response.fields.length > 0 ? (
        <ResponseFields
          label={`Response fields of ${operation.method} ${operation.path} (${response.status})`}
          fields={response.fields}
        />
      ) : null}
    </li>
  );
}

/** One operation of the OpenAPI document, as the reference shows it. */
export function OperationCard({
  operation,
  basePath,
}: {
  operation: OperationView;
  basePath: string;
}) {
  const name = `${operation.method} ${operation.path}`;
  return (
    <Card id={operation.id} className="grid min-w-0 scroll-mt-24 gap-4 p-4 sm:p-6">
      <h4 className="flex min-w-0 flex-wrap items-center gap-3">
        <HttpMethod method={operation.method} />{' '}
        <code className="min-w-0 font-mono text-base font-semibold break-all">
          {basePath}
          {operation.path}
        </code>
      </h4>
      <p className="font-medium">{operation.summary}</p>
      {operation.description ? (
        <p className="text-muted-foreground">
          <InlineMarkup text={operation.description} />
        </p>
      ) : null}
      {operation.permission ? (
        <p className="text-sm">
          Key permission: <strong>{operation.permission}</strong>
        </p>
      ) : null}
      {operation.parameters.length > 0 ? (
        <div className="grid gap-2">
          <Subheading>Parameters</Subheading>
          <FieldList label={`Parameters of ${name}`} fields={operation.parameters} />
        </div>
      ) : null}
      {operation.requestBody ? (
        <div className="grid gap-2">
          <Subheading>Request body</Subheading>
          {operation.requestBody.fields.length > 0 ? (
            <FieldList label={`Request body of ${name}`} fields={operation.requestBody.fields} />
          ) : (
            <p className="text-sm text-muted-foreground">A JSON body.</p>
          )}
        </div>
      ) : null}
      <div className="grid gap-2">
        <Subheading>Responses</Subheading>
        <ul className="grid gap-2">
          {operation.responses.map((response) => (
            <ResponseItem key={response.status} operation={operation} response={response} />
          ))}
        </ul>
      </div>
      <div className="grid min-w-0 gap-2">
        <Subheading>Example request</Subheading>
        <CodeBlock label={`Example request: ${name}`} code={operation.example} />
      </div>
    </Card>
  );
}
