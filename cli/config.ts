import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_API_URL } from '../shared/contracts/public-api';
import type { CliEnv } from './env';

/** What `rentgpu login` keeps: the key and, when given at login, the server. */
export interface StoredConfig {
  apiKey?: string;
  apiUrl?: string;
}

function readConfig(file: string): StoredConfig {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { apiKey, apiUrl } = parsed as Record<string, unknown>;
    return {
      ...(typeof apiKey === 'string' ? { apiKey } : {}),
      ...(typeof apiUrl === 'string' ? { apiUrl } : {}),
    };
  } catch {
    return {};
  }
}

/** Written readable by the user only (0600, its folder 0700): it holds a secret. */
export function writeConfig(file: string, config: StoredConfig): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function removeConfig(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The key: --api-key, then RENTGPU_API_KEY, then the stored file. */
export function resolveKey(flag: string | undefined, env: CliEnv): string | undefined {
  return flag || env.apiKey || readConfig(env.configFile).apiKey || undefined;
}

/** The server: --api-url, then RENTGPU_API_URL, then the stored one, then the default. */
export function resolveUrl(flag: string | undefined, env: CliEnv): string {
  const url = flag || env.apiUrl || readConfig(env.configFile).apiUrl || DEFAULT_API_URL;
  return url.replace(/\/+$/, '');
}
