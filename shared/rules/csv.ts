/** RFC 4180: quoted when it holds a comma, quote or line break; a leading =+-@ is defused. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+@\t\r]/.test(text) || (/^-/.test(text) && !/^-\d/.test(text))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as CSV text, CRLF line ends (RFC 4180). */
export function csvText(rows: (string | number)[][]): string {
  return `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
