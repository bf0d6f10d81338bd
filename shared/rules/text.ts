/**
 * Text the database cannot store: PostgreSQL refuses the NUL character in text and jsonb, and a
 * lone UTF-16 surrogate has no UTF-8 form (it would be stored as U+FFFD, silently changed).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'Contains a character that cannot be stored';

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The path of the first string (value or object key) in a parsed JSON-like value that holds
 * unstorable text, as ['specifications', 'cooling'] or [] for the value itself; null when all
 * of it can be stored. Iterative, so deep nesting cannot overflow the stack.
 */
export function findUnstorableText(value: unknown): (string | number)[] | null {
  interface Step {
    value: unknown;
    key: string | number | null;
    parent: Step | null;
  }
  const pathOf = (step: Step | null, last?: string): (string | number)[] => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let s = step; s && s.key !== null; s = s.parent) path.push(s.key);
    return path.reverse();
  };
  const stack: Step[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const current = step.value;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return pathOf(step);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i], key: i, parent: step });
      }
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (!isStorableText(key)) return pathOf(step, printableKey(key));
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: step });
      }
    }
  }
  return null;
}

/** A key that itself holds unstorable text, with those characters shown as U+FFFD. */
function printableKey(key: string): string {
  return key.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');
}

/**
 * Control characters (C0, DEL, C1), the Unicode line and paragraph separators, and lone
 * surrogates: nothing a name or an SSH key comment needs, and each of them breaks a terminal,
 * an authorized_keys line or a YAML document when written raw.
 */
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * Free text from an untrusted source (a host's error message) made safe to store and show:
 * each control character, line break and lone surrogate becomes one space.
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(new RegExp(CONTROL.source, 'g'), ' ');
}
