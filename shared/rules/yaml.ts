/**
 * A YAML double-quoted scalar that every YAML 1.1 and 1.2 parser (PyYAML in cloud-init, the
 * `yaml` package) reads back as exactly `value`. Only printable ASCII is written as itself;
 * everything else is an escape both versions know (\xXX, \uXXXX, \UXXXXXXXX), so no control
 * character, line break or odd Unicode reaches the file raw, where PyYAML refuses the whole
 * document (DEL, C1) or folds it (U+2028, U+2029, U+0085). Not JSON.stringify: JSON writes
 * DEL, C1 and the line separators raw, and its escapes for lone surrogates decode to text
 * that cannot be written as UTF-8. A lone surrogate has no UTF-8 form: it becomes U+FFFD,
 * as it would on disk.
 */
export function yamlString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0xfffd;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code <= 0x7e) out += char;
    else if (code <= 0xff) out += `\\x${hex(code, 2)}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\\uFFFD';
    else if (code <= 0xffff) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return `${out}"`;
}

const hex = (code: number, digits: number) => code.toString(16).toUpperCase().padStart(digits, '0');
