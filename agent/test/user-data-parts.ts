/**
 * The parts of a seed's MIME multipart user-data, each its content type and body. The line
 * break before the next boundary belongs to the boundary (RFC 2046), not to the part.
 */
export function userDataParts(userData: string): { type: string; body: string }[] {
  const boundary = /boundary="([^"]+)"/.exec(userData)?.[1] ?? '';
  return userData
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => {
      const [head = '', ...rest] = chunk.replace(/^\n/, '').split('\n\n');
      const body = rest.join('\n\n').replace(/\n$/, '');
      return { type: /Content-Type: ([^;\n]+)/.exec(head)?.[1] ?? '', body };
    });
}
