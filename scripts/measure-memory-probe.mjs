// Loaded into the measured server process only (scripts/measure-memory.mjs, `--import`): on
// SIGUSR2 it writes the process's own memory figures to MEASURE_MEMORY_REPORT, and a heap
// snapshot into MEASURE_MEMORY_SNAPSHOT_DIR when that is set.
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

const reportFile = process.env.MEASURE_MEMORY_REPORT;
const snapshotDir = process.env.MEASURE_MEMORY_SNAPSHOT_DIR;
if (reportFile) {
  process.on('SIGUSR2', () => {
    const snapshot = snapshotDir
      ? v8.writeHeapSnapshot(path.join(snapshotDir, `memory-${process.pid}.heapsnapshot`))
      : undefined;
    const spaces = v8.getHeapSpaceStatistics().map((space) => ({
      name: space.space_name,
      size: space.space_size,
      used: space.space_used_size,
    }));
    const report = { memoryUsage: process.memoryUsage(), spaces, snapshot };
    writeFileSync(`${reportFile}.tmp`, JSON.stringify(report));
    // Renamed into place, so the reader never sees half a file.
    renameSync(`${reportFile}.tmp`, reportFile);
  });
}
