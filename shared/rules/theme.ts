export const THEMES = ['dark', 'light', 'pastel'] as const;
export type Theme = (typeof THEMES)[number];

export const DEFAULT_THEME: Theme = 'dark';

export const THEME_DESCRIPTIONS: Record<Theme, string> = {
  dark: 'Dark theme with deep colors',
  light: 'Clean light theme',
  pastel: 'Soft pastel colors',
};

export const THEME_LABELS: Record<Theme, string> = {
  dark: 'Dark',
  light: 'Light',
  pastel: 'Pastel',
};

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/**
 * At start, a signed-in user's saved theme wins; otherwise the
 * locally stored choice if valid; otherwise dark.
 */
export function resolveInitialTheme(savedOnServer: unknown, storedLocally: unknown): Theme {
  if (isTheme(savedOnServer)) return savedOnServer;
  if (isTheme(storedLocally)) return storedLocally;
  return DEFAULT_THEME;
}
