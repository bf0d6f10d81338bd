import { describe, expect, it } from 'vitest';
import documentJson from '../../docs/openapi.json';
import type { OpenApiDocument } from './openapi-document';
import { documentOperations, openApiView } from './openapi-view';

const committed = documentJson as unknown as OpenApiDocument;
const ORIGIN = 'https://api.example.test';

const allOperations = (document: OpenApiDocument) =>
  openApiView(document, ORIGIN).groups.flatMap((group) => group.operations);

describe('openApiView of docs/openapi.json', () => {
  const view = openApiView(committed, ORIGIN);

  it('shows every operation of the document exactly once', () => {
    const expected = Object.entries(committed.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(expected.length).toBeGreaterThan(10);
    const shown = allOperations(committed).map((op) => `${op.method} ${op.path}`);
    expect(shown.sort()).toEqual(expected.sort());
    expect(new Set(shown).size).toBe(shown.length);
    const ids = allOperations(committed).map((op) => op.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('groups operations by their tag, in the order of the document', () => {
    const tagNames = (committed.tags ?? []).map((tag) => tag.name);
    const groupNames = view.groups.map((group) => group.name);
    expect(groupNames).toEqual(tagNames.filter((name) => groupNames.includes(name)));
    for (const group of view.groups) {
      for (const op of group.operations) {
        const item = committed.paths[op.path]?.[op.method.toLowerCase()] as { tags?: string[] };
        expect(item.tags?.[0]).toBe(group.name);
      }
    }
  });

  it('reads the tiers, the base URL, the authentication scheme and the error body', () => {
    expect(view.tiers).toEqual([
      { name: 'Standard', requestsPerHour: 1000 },
      { name: 'Pro', requestsPerHour: 5000 },
      { name: 'Enterprise', requestsPerHour: 25000 },
    ]);
    expect(view.rateWindowSeconds).toBe(3600);
    expect(view.baseUrl).toBe(`${ORIGIN}/api/v1`);
    expect(view.auth?.scheme).toBe('bearer');
    expect(view.errorBody?.fields.map((f) => f.name)).toEqual([
      'error',
      'error.code',
      'error.message',
      'error.details',
    ]);
    expect(view.errorBody?.fields[1]?.constraints[0]).toContain('"INSUFFICIENT_CREDITS"');
  });

  it('resolves $ref in bodies and responses and names each permission', () => {
    const create = allOperations(committed).find((op) => op.operationId === 'createInstance');
    expect(create?.permission).toBe('write');
    expect(create?.requestBody?.fields.map((f) => [f.name, f.required])).toEqual([
      ['gpuListingId', true],
      ['kind', false],
      ['image', false],
      ['durationHours', false],
      ['sshKeyId', false],
      ['template', false],
      ['stopAt', false],
      ['terminateAt', false],
      ['idleStopMinutes', false],
      ['idleThresholdPercent', false],
    ]);
    expect(create?.requestBody?.fields[3]).toMatchObject({
      type: 'integer',
      constraints: ['min 1', 'max 720'],
    });
    const created = create?.responses.find((r) => r.status === '201');
    expect(created?.fields.map((f) => f.name)).toContain('instance.sshHost');
    expect(created?.fields.find((f) => f.name === 'instance.sshHost')?.type).toBe('string or null');
    expect(create?.responses.find((r) => r.status === '4XX')?.schemaName).toBe('Error');
    expect(create?.example).toBe(
      [
        `curl -X POST "${ORIGIN}/api/v1/instances"`,
        '-H "Authorization: Bearer YOUR_API_KEY"',
        '-H "Content-Type: application/json"',
        // The schema's own example (a booked instance), not one made up from its fields.
        `-d '{\n  "gpuListingId": 1,\n  "durationHours": 4\n}'`,
      ].join(' \\\n  '),
    );
  });
});

describe('openApiView of a made-up document', () => {
  const document: OpenApiDocument = {
    info: { title: 'T', version: '1' },
    servers: [{ url: '/v9' }],
    security: [{ key: [] }],
    components: {
      schemas: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, child: { $ref: '#/components/schemas/Node' } },
          required: ['name'],
        },
      },
    },
    paths: {
      '/trees/{treeId}': {
        parameters: [],
        get: {
          summary: 'A tree',
          security: [{ key: ['reader'] }],
          parameters: [
            { name: 'treeId', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'depth', in: 'query', required: true, schema: { type: 'integer', minimum: 2 } },
          ],
          responses: {
            '200': {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
            },
          },
        },
        put: { tags: ['Trees'], responses: {} },
      },
    },
  };

  it('puts untagged operations in Other, stops at recursive refs and fills required query values', () => {
    const view = openApiView(document, 'http://h');
    expect(view.groups.map((g) => [g.name, g.operations.map((o) => o.method)])).toEqual([
      ['Other', ['GET']],
      ['Trees', ['PUT']],
    ]);
    const get = view.groups[0]?.operations[0];
    expect(get?.id).toBe('get-trees-treeid');
    expect(get?.permission).toBe('reader');
    expect(get?.example.split('\n')[0]).toBe('curl "http://h/v9/trees/1?depth=2" \\');
    // The recursive child is named, not expanded again.
    expect(get?.responses[0]?.fields.map((f) => f.name)).toEqual(['name', 'child']);
    // No security named on the operation and none with a role in the document.
    expect(view.groups[1]?.operations[0]?.permission).toBeNull();
    expect(view.tiers).toEqual([]);
    expect(documentOperations(document)).toHaveLength(2);
  });
});
