export const SERVER_NODE_FLAGS: string[];
export const SERVER_ENV: Readonly<Record<string, string>>;
export function withServerEnv<T extends Record<string, string | undefined>>(
  env: T,
): T & Record<string, string | undefined>;
