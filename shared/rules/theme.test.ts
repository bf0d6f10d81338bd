import { describe, expect, it } from 'vitest';
import { isTheme, resolveInitialTheme, THEME_DESCRIPTIONS } from './theme';

describe('themes', () => {
  it('accepts only dark, light and pastel', () => {
    expect(['dark', 'light', 'pastel'].every(isTheme)).toBe(true);
    expect(isTheme('Dark')).toBe(false);
    expect(isTheme('neon')).toBe(false);
    expect(isTheme(null)).toBe(false);
  });

  it("carries the spec's descriptions", () => {
    expect(THEME_DESCRIPTIONS).toEqual({
      dark: 'Dark theme with deep colors',
      light: 'Clean light theme',
      pastel: 'Soft pastel colors',
    });
  });

  it("prefers the user's saved theme, then a valid local one, then dark", () => {
    expect(resolveInitialTheme('pastel', 'light')).toBe('pastel');
    expect(resolveInitialTheme(undefined, 'light')).toBe('light');
    expect(resolveInitialTheme(undefined, 'neon')).toBe('dark');
    expect(resolveInitialTheme('bogus', null)).toBe('dark');
  });
});
