/**
 * Text written for programs, not people (issue 26 part 4): a Node system error code
 * ("getaddrinfo ENOTFOUND gpu-1.demo.rentgpu.dev", "connect ECONNREFUSED 10.0.0.1:22") or a
 * stack frame ("    at connect (node:net:1:2)"). No page shows such text: the server maps
 * it to a clear message where it leaves (and logs the original), and the web app does the
 * same with anything that still arrives.
 */
const SYSTEM_ERROR =
  /\b(getaddrinfo|E(NOTFOUND|CONNREFUSED|CONNRESET|CONNABORTED|TIMEDOUT|HOSTUNREACH|NETUNREACH|PIPE|ACCES|PERM|NOENT|ADDRINUSE|AI_AGAIN|PROTO))\b|(^|\n)\s*at\s+\S.*(\(|\s)\S+:\d+:\d+\)?\s*($|\n)/;

export function looksLikeSystemError(text: string): boolean {
  return SYSTEM_ERROR.test(text);
}

/** `text` when people can read it, else `fallback`. */
export function userFacingMessage(text: string, fallback: string): string {
  return looksLikeSystemError(text) ? fallback : text;
}

/** A host's reason an instance failed, as the renter reads it (the database keeps the original). */
export function shownHostError(text: string | null): string | null {
  return text === null
    ? null
    : userFacingMessage(text, 'The host could not run the instance. Try another GPU or host.');
}
