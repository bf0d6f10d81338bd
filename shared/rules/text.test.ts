import { describe, expect, it } from 'vitest';
import { findUnstorableText, isStorableText, withoutControlCharacters } from './text';

describe('text the database can store', () => {
  it('accepts ordinary text, emoji and other surrogate pairs', () => {
    expect(isStorableText('Grüße 👋 漢字')).toBe(true);
  });

  it('refuses NUL and lone surrogates', () => {
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('a\uD800')).toBe(false);
    expect(isStorableText('\uDC00b')).toBe(false);
    expect(isStorableText('\uDC00\uD800')).toBe(false);
  });

  it('names the path of the first bad string, key or value', () => {
    expect(findUnstorableText({ a: 'ok', b: [1, 'x', 'y\u0000'] })).toEqual(['b', 2]);
    expect(findUnstorableText({ s: { 'k\u0000': 1 } })).toEqual(['s', 'k\uFFFD']);
    expect(findUnstorableText('\uD800')).toEqual([]);
    expect(findUnstorableText({ a: [1, { b: null }], c: true })).toBeNull();
  });

  it('walks very deep nesting without overflowing the stack', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toHaveLength(200_000);
  });
});

describe('withoutControlCharacters', () => {
  it('turns every control character, line break and lone surrogate into a space', () => {
    expect(
      withoutControlCharacters('boot failed\n\u001b[31mred\u0007\u007f\u0085\u2028x\ud800y'),
    ).toBe('boot failed  [31mred    x y');
    expect(withoutControlCharacters('qemu: could not open disk 💾')).toBe(
      'qemu: could not open disk 💾',
    );
  });
});
