// How Node runs the server process (its flags and the environment added to it), wherever it is
// started: `npm start`, the browser tests' server, the Lighthouse run, the system test's
// processes and `npm run bench` (which runs the server in its own process) — so what is
// measured is what runs.
//
// --max-semi-space-size=32: the young generation may grow to 32 MiB per semi-space instead of
// Node 20's 16. Every uncached marketplace page allocates its ~28 KB of JSON text twice and a
// request's objects live across a database round trip, so with 16 MiB the scavenger ran often
// and promoted in-flight requests to the old generation. Measured with 64 (first page with the
// read cache off, 10,000 listings, 32 connections, the load from another process, three runs
// each, alternating): 4,236–4,599 → 4,702–5,129 req/s, p99 17–20 → 11–13 ms, the server's user
// CPU 114–122 → 103–108 µs per request (docs/architecture.md, "Marketplace queries"). 64 cost
// up to 96 MiB more memory than 16, and the server held 371 MiB after a demo visitor's tour
// with it, 330 with 32 (issue 43's goal is 300; docs/architecture.md, "Memory").
export const SERVER_NODE_FLAGS = ['--enable-source-maps', '--max-semi-space-size=32'];

// MALLOC_ARENA_MAX=2: glibc makes up to 8 malloc arenas per core, one for each thread that
// allocates at a moment another holds the main one (libuv's pool, V8's platform threads), and an
// arena keeps what it once held. Measured with `npm run measure:memory -- --wait 30` on this
// 2-core machine, back to back: 293–295 MiB resident after the tour with glibc's default, 265
// with 2 (docs/architecture.md, "Memory"). An environment's own MALLOC_ARENA_MAX wins.
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };

/** `env` with SERVER_ENV under it (the caller's values win). */
export function withServerEnv(env) {
  return { ...SERVER_ENV, ...env };
}
