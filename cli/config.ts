import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { DEFAULT_API_URL } from '../shared/contracts/public-api';

/** What `rentgpu login` keeps: the key and, when given at login, the server. */
export interface StoredConfig {
  apiKey?: string;
  apiUrl?: string;
}

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/rentgpu/config.json`, else `~/.config/rentgpu/config.json`. */
export function configPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'rentgpu', 'config.json');
}

export function readConfig(env: Env): StoredConfig {
  try {
    const parsed: unknown = JSON.parse(readFileSync(configPath(env), 'utf8'));
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
export function writeConfig(env: Env, config: StoredConfig): string {
  const file = configPath(env);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function removeConfig(env: Env): boolean {
  const file = configPath(env);
  try {
    rmSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The key: --api-key, then RENTGPU_API_KEY, then the stored file. */
export function resolveKey(flag: string | undefined, env: Env): string | undefined {
  return flag || env.RENTGPU_API_KEY || readConfig(env).apiKey || undefined;
}

/** The server: --api-url, then RENTGPU_API_URL, then the stored one, then the default. */
export function resolveUrl(flag: string | undefined, env: Env): string {
  const url = flag || env.RENTGPU_API_URL || readConfig(env).apiUrl || DEFAULT_API_URL;
  return url.replace(/\/+$/, '');
}
