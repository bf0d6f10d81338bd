import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../env';
import { installRowDescriptionCache, pgParser } from './pg-row-description';

/** A RowDescription message ('T') of text columns named `names`, of type `oid`. */
function rowDescription(names: string[], oid = 25): Buffer {
  const fields = names.map((name) => {
    const tail = Buffer.alloc(18);
    tail.writeUInt32BE(0, 0); // table
    tail.writeInt16BE(0, 4); // column
    tail.writeUInt32BE(oid, 6); // type
    tail.writeInt16BE(-1, 10); // size
    tail.writeInt32BE(-1, 12); // modifier
    tail.writeInt16BE(0, 16); // text
    return Buffer.concat([Buffer.from(`${name}\0`, 'utf8'), tail]);
  });
  const count = Buffer.alloc(2);
  count.writeInt16BE(names.length, 0);
  const body = Buffer.concat([count, ...fields]);
  const head = Buffer.alloc(5);
  head.write('T', 0, 'latin1');
  head.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

type ParsedField = { name: string; dataTypeID: number; format: string };
type Parsed = { name: string; length: number; fields: ParsedField[] };

function parseAll(bytes: Buffer): Parsed[] {
  const parser = new (
    pgParser as unknown as new () => {
      parse(buffer: Buffer, callback: (message: Parsed) => void): void;
    }
  )();
  const messages: Parsed[] = [];
  parser.parse(bytes, (message) => messages.push(message));
  return messages;
}

/**
 * server/db/pg-row-description.ts answers a RowDescription already parsed from its bytes: the
 * same message for the same bytes, its own for others, every field as pg-protocol parses it.
 */
describe('RowDescription messages parsed once (pg-row-description.ts)', () => {
  installRowDescriptionCache();

  it('answers the same bytes with the same message, other bytes with their own', () => {
    const a = rowDescription(['id', 'name', 'ssh_host']);
    const b = rowDescription(['id', 'name', 'ssh_port']);
    const c = rowDescription(['id', 'name', 'ssh_host'], 23);
    // Split across reads, as a socket may hand them over.
    const [first, second, third, fourth] = parseAll(Buffer.concat([a, b, a, c]));
    expect(first?.name).toBe('rowDescription');
    expect(first?.fields.map((f) => f.name)).toEqual(['id', 'name', 'ssh_host']);
    expect(first?.fields.every((f) => f.dataTypeID === 25 && f.format === 'text')).toBe(true);
    expect(first?.length).toBe(a.length - 1);
    expect(third).toBe(first);
    expect(second).not.toBe(first);
    expect(second?.fields.map((f) => f.name)).toEqual(['id', 'name', 'ssh_port']);
    expect(fourth).not.toBe(first);
    expect(fourth?.fields.every((f) => f.dataTypeID === 23)).toBe(true);
  });

  it('tells apart descriptions of one length, and starts again past its bound', () => {
    // 600 descriptions of the same length (more than it keeps), each read twice in a row.
    const many = Array.from({ length: 600 }, (_, i) =>
      rowDescription(['id', `c${String(i).padStart(4, '0')}`]),
    );
    const parsed = parseAll(Buffer.concat(many.flatMap((m) => [m, m])));
    expect(parsed).toHaveLength(1_200);
    for (let i = 0; i < 600; i += 1) {
      const [first, again] = [parsed[2 * i], parsed[2 * i + 1]];
      expect(first?.fields.map((f) => f.name)).toEqual(['id', `c${String(i).padStart(4, '0')}`]);
      expect(again).toBe(first);
    }
  });

  it('leaves every other message to pg-protocol', () => {
    // Two ReadyForQuery ('Z', idle): parsed each time, not kept.
    const ready = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
    const [one, two] = parseAll(Buffer.concat([ready, ready]));
    expect(one?.name).toBe('readyForQuery');
    expect(two).not.toBe(one);
  });

  it.skipIf(!testDatabaseUrl())(
    "is the parser node-postgres's connections use (PostgreSQL)",
    async () => {
      const client = new pg.Client({ connectionString: testDatabaseUrl() });
      await client.connect();
      try {
        const query = {
          name: 'row_description_test',
          text: 'select $1::int as n, $1::text as t, now() as at',
          rowMode: 'array' as const,
        };
        const one = await client.query({ ...query, values: [1] });
        const two = await client.query({ ...query, values: [2] });
        expect(one.rows[0]?.slice(0, 2)).toEqual([1, '1']);
        expect(two.rows[0]?.slice(0, 2)).toEqual([2, '2']);
        expect(two.rows[0]?.[2]).toBeInstanceOf(Date);
        expect(two.fields).toBe(one.fields);
      } finally {
        await client.end();
      }
    },
  );
});
