// How Node runs the server process (its flags and the environment added to it), wherever it is
// started: `npm start`, the browser tests' server, the Lighthouse run, the system test's
// processes and `npm run bench` (which runs the server in its own process) — so what is
// measured is what runs.
//
// --max-semi-space-size=8: half Node 20's own young generation. The young generation shrinks
// back only at a scavenge, and once the event log's per-commit reads were gone (issue 43) an idle
// server allocated too little to scavenge: after a demo visitor's tour it kept the 32 MiB it had
// grown to (`npm run measure:memory -- --wait 30`, 2026-11-29: 287–325 MiB resident with 16,
// median 306; 266–306 with 8, median 292; 90 s of waiting did not shrink it). Back to back, 16
// against 8, two rounds: the first page 2,027 and 2,058 against 1,815 and 2,054 req/s, a location
// search 1,379 and 1,308 against 1,279 and 1,453, rent-then-stop 158.0 and 154.0 against 150.8
// and 166.6 pairs/s. A second run of the sorts, 16 against 8 back to back twice, showed the
// cost: the first page 2,058 and 2,017 against 2,033 and 1,961 req/s, sort by price 2,037 and
// 1,962 against 1,667 and 1,801, the server thread 5–60 µs more a request (more scavenges).
// Kept for the memory goal; a trade, not a free change. Before, 16 had been written out
// because it was once raised. 64 and then 32 let the scavenger run less often under load (every uncached
// marketplace page allocates its ~28 KB of JSON text twice, and a request's objects live across
// a database round trip): 4,236–4,599 → 4,702–5,129 req/s for the first page with 64 on a loaded
// machine. But the young generation stays as large as it once grew, and the server held
// 329–350 MiB after a demo visitor's tour with 32, 275–304 with 16 (`npm run measure:memory --
// --wait 30`, 2026-11-29, five runs with 16; issue 43's goal is 300). Back to back on the same
// quiet machine, 32 against 16: the first page 1,927–2,000 against 1,952–2,023 req/s, a
// location search 844–918 against 938–990, rent-then-stop 159.9–171.9 against 151.6–168.5 pairs/s
// (docs/architecture.md, "Memory").
export const SERVER_NODE_FLAGS = ['--enable-source-maps', '--max-semi-space-size=8'];

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
