// `npm run openapi`: writes the public API's OpenAPI 3.1 document to docs/openapi.json, generated
// from the routes' zod schemas (server/modules/public-api/openapi.ts). A test fails when the
// committed file is not current.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateOpenApiDocument } from '../server/modules/public-api/document';

const target = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'docs',
  'openapi.json',
);
writeFileSync(target, await generateOpenApiDocument());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
