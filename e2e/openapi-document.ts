import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Operation {
  operationId: string;
  summary: string;
  tags?: string[];
  security?: Record<string, string[]>[];
}

interface Document {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  'x-rate-limit-tiers': { tiers: { name: string; requestsPerHour: number }[] };
}

/** The committed OpenAPI document, read as the pages that render it should show it. */
export const OPENAPI = JSON.parse(
  readFileSync(path.join(process.cwd(), 'docs', 'openapi.json'), 'utf8'),
) as Document;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document: method, path, summary, its tag and key permission. */
export const OPERATIONS = Object.entries(OPENAPI.paths).flatMap(([opPath, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({
      id: op.operationId,
      method: method.toUpperCase(),
      path: opPath,
      summary: op.summary,
      tag: op.tags?.[0] ?? 'Other',
      permission: op.security?.flatMap((s) => Object.values(s).flat()).join(', ') ?? '',
    })),
);

export const BASE_PATH = OPENAPI.servers[0]?.url ?? '';

/** The rate tiers as the pages write them: "Standard 1,000". */
export const TIERS = OPENAPI['x-rate-limit-tiers'].tiers.map(
  (tier) => `${tier.name} ${tier.requestsPerHour.toLocaleString('en-US')}`,
);
