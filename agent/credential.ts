import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeAtomic } from './files';

const storedCredential = z.object({
  serverUrl: z.string(),
  agentId: z.string(),
  credential: z.string(),
});
export type StoredCredential = z.infer<typeof storedCredential>;

export const credentialPath = (stateDir: string) => path.join(stateDir, 'credential.json');

/** The agent's credential, readable by its owner only (0600). */
export async function loadCredential(stateDir: string): Promise<StoredCredential | null> {
  let text: string;
  try {
    text = await readFile(credentialPath(stateDir), 'utf8');
  } catch {
    return null;
  }
  return storedCredential.parse(JSON.parse(text));
}

export async function saveCredential(stateDir: string, value: StoredCredential) {
  await writeAtomic(credentialPath(stateDir), `${JSON.stringify(value)}\n`, 0o600);
}
