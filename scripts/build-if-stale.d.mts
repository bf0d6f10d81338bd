/** Where the fingerprint of the sources dist/ was built from is kept. */
export const STAMP: string;
/** The source fingerprint dist/ was built from (web, shared, server, agent and their build scripts). */
export function sourceFingerprint(): string;
/** Builds the web app, the server and the agent bundles unless dist/ matches the sources; true when it built. */
export function buildIfStale(options?: { log?: (line: string) => void }): boolean;
