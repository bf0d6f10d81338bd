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
// with 2 (docs/architecture.md, "Memory").
//
// MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ at glibc's own starting values (128 KiB),
// written out so that glibc keeps them: by default, each time an mmapped block is freed glibc
// raises the mmap threshold to its size (up to 32 MiB) and the trim threshold to twice that, so
// after the embedded database's start had freed a few large blocks, blocks of up to megabytes came
// from the arenas' heaps, and up to twice that of free memory stayed resident in each. Measured
// with `npm run measure:memory -- --wait 30` back to back (2026-11-30, issue 43): 30 s after the
// tour 281–290 MiB resident with the dynamic thresholds (mean 285, five runs), 251–280 with
// them fixed (mean 268, nine runs, 128 KiB or 1 MiB of trim alike); the second arena's mapping
// fell from 43–45 MiB resident to 13–31. The marketplace and rent-then-stop did not slow (`BENCH_ONLY=shapes,rent`,
// alternating two rounds: first page 1,194 and 1,350 req/s with dynamic thresholds, 1,247 and
// 1,517 fixed; rent-then-stop 125.2 and 126.4 pairs/s, 143.0 and 126.2 fixed; a slow hour of
// the machine). An environment's own value of any of these wins.
export const SERVER_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/** `env` with SERVER_ENV under it (the caller's values win). */
export function withServerEnv(env) {
  return { ...SERVER_ENV, ...env };
}
