import document from '../../docs/openapi.json';
import type { OpenApiDocument } from './openapi-document';
import { type ApiView, type OperationView, openApiView } from './openapi-view';

/**
 * The public API's OpenAPI document, bundled at build time from docs/openapi.json (the file
 * `npm run openapi` writes from the routes' zod contracts; a test keeps it current). Only the
 * lazily loaded pages that describe the API import this module.
 */
const API_DOCUMENT = document as unknown as OpenApiDocument;

let cached: ApiView | undefined;

/** The document's view, with example requests addressed to this site's own origin. */
export function apiView(): ApiView {
  cached ??= openApiView(API_DOCUMENT, window.location.origin);
  return cached;
}

/** The first operation that reads without parameters: the example of an authenticated call. */
export function firstPlainRead(view: ApiView): OperationView | undefined {
  const operations = view.groups.flatMap((group) => group.operations);
  return (
    operations.find((op) => op.method === 'GET' && op.parameters.every((p) => !p.required)) ??
    operations[0]
  );
}
