import { chmod, readFile, rename, stat, writeFile } from 'node:fs/promises';

/** The agent's small file habits for its state folder. */

/** A JSON file read and checked by `parse`; null when missing or unreadable. */
export async function readJson<T>(file: string, parse: (v: unknown) => T): Promise<T | null> {
  try {
    return parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return null;
  }
}

export async function fileExists(file: string) {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** Write to a temporary name and rename: a crash leaves the old file or the new one. */
export async function writeAtomic(file: string, content: string, mode = 0o600) {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, content, { mode });
  await chmod(tmp, mode);
  await rename(tmp, file);
}
