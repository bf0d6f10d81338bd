// `npm run openapi`: writes the public API's OpenAPI 3.1 document to docs/openapi.json and its
// openapi-typescript types to shared/contracts/openapi-types.ts, both generated from the routes' zod schemas
// (server/modules/public-api/openapi.ts). A test fails when either committed file is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiTypesText, generateOpenApiDocument } from '../server/modules/public-api/document';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const document = await generateOpenApiDocument();
writeFileSync(path.join(root, 'docs', 'openapi.json'), document);
writeFileSync(
  path.join(root, 'shared', 'contracts', 'openapi-types.ts'),
  await apiTypesText(document),
);
console.log('wrote docs/openapi.json and shared/contracts/openapi-types.ts');
