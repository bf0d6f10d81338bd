import { createRequire } from 'node:module';

/**
 * node-postgres's RowDescription, parsed once per distinct message rather than on every
 * statement.
 *
 * PostgreSQL describes the columns of every statement that answers rows, a named statement's
 * too (the client describes the portal on each execution), and pg-protocol parses each
 * description anew: a name and six numbers, as a new object, for every column. The bytes of a
 * statement's description are the same every time, so a message already parsed is answered
 * from a map keyed by its bytes; `addFields` (pg-result.ts) then finds the same fields array
 * and reuses the empty object row it made for it. Under rent-then-stop the descriptions'
 * parsing was 3.3% of the server thread and `addFields` 2.3%, the 62 columns of `instances`
 * the widest (perf, 2026-11-30; issue 43).
 *
 * The cached message is shared: nothing downstream writes to it (the client hands its fields
 * to the result, which reads them). At most MAX_MESSAGES are kept, then the map starts again:
 * a few hundred statement shapes, each description a few hundred bytes to 2 KB. Installed once
 * with the database client (server/db/client.ts); pg-row-description.test.ts checks that the
 * parser node-postgres uses is the one patched, so an upgrade that moves it fails a test.
 */
const MAX_MESSAGES = 512;
/** PostgreSQL's RowDescription message type, 'T'. */
const ROW_DESCRIPTION = 84;

interface Message {
  length: number;
}
interface ParserInternals {
  handlePacket(offset: number, code: number, length: number, bytes: Buffer): Message;
}

// pg's own copy of pg-protocol (its dependency): the Parser class its connections make.
const requireFromPg = createRequire(createRequire(import.meta.url).resolve('pg'));
const { Parser } = requireFromPg('pg-protocol/dist/parser.js') as {
  Parser: { prototype: ParserInternals };
};
const installed = Symbol.for('rentgpu.pg-row-description.cache');

export function installRowDescriptionCache(): void {
  const proto = Parser.prototype;
  const marked = proto as unknown as Record<symbol, boolean>;
  if (marked[installed]) return;
  const parse = proto.handlePacket;
  // By the message's length, then its bytes compared (a memcmp: a string key of a 62-column
  // description cost 2.7 µs to make and hash, against 8.2 µs to parse it).
  const known = new Map<number, { bytes: Buffer; message: Message }[]>();
  let kept = 0;
  proto.handlePacket = function handlePacket(this: ParserInternals, offset, code, length, bytes) {
    if (code !== ROW_DESCRIPTION) return parse.call(this, offset, code, length, bytes);
    // The message after its length word: the field count and the fields.
    const end = offset + length - 4;
    const same = known.get(length);
    if (same) {
      for (const entry of same) {
        if (entry.bytes.compare(bytes, offset, end) === 0) return entry.message;
      }
    }
    const message = parse.call(this, offset, code, length, bytes);
    if (kept >= MAX_MESSAGES) {
      known.clear();
      kept = 0;
    }
    const entry = { bytes: Buffer.from(bytes.subarray(offset, end)), message };
    if (same && known.has(length)) same.push(entry);
    else known.set(length, [entry]);
    kept += 1;
    return message;
  };
  marked[installed] = true;
}

/** The parser class node-postgres's connections use (for the test). */
export const pgParser = Parser;
