import { homedir } from 'node:os';
import path from 'node:path';

/**
 * The CLI's environment: the one place in cli/ that reads process.env. Read once at start
 * (processIo); tests and other callers hand `run` their own. An empty variable counts as unset.
 */
export interface CliEnv {
  /** RENTGPU_API_KEY: the key when --api-key is not given, before the stored one. */
  apiKey: string | undefined;
  /** RENTGPU_API_URL: the server when --api-url is not given, before the stored one. */
  apiUrl: string | undefined;
  /** Where login keeps the key: `$XDG_CONFIG_HOME/rentgpu/config.json`, else under `~/.config`. */
  configFile: string;
  /** ALLOW_PRIVATE_HOST_ADDRESSES (`1`, `true`): ssh to loopback or private addresses, a lab. */
  allowPrivateHostAddresses?: boolean;
}

export function parseCliEnv(source: NodeJS.ProcessEnv = process.env): CliEnv {
  const base = source.XDG_CONFIG_HOME || path.join(source.HOME || homedir(), '.config');
  return {
    apiKey: source.RENTGPU_API_KEY || undefined,
    apiUrl: source.RENTGPU_API_URL || undefined,
    configFile: path.join(base, 'rentgpu', 'config.json'),
    allowPrivateHostAddresses: ['1', 'true'].includes(source.ALLOW_PRIVATE_HOST_ADDRESSES ?? ''),
  };
}
