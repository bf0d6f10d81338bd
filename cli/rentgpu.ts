// The rentgpu command (bin/rentgpu.mjs runs this file through tsx).
import { run } from './main';
import { processIo } from './process-io';

process.exitCode = await run(process.argv.slice(2), processIo());
