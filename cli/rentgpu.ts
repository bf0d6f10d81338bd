// The rentgpu command (bin/rentgpu.mjs runs this file through tsx).
import { processIo, run } from './main';

process.exitCode = await run(process.argv.slice(2), processIo());
