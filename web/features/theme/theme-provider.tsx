import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';
import { isTheme, resolveInitialTheme, THEMES, type Theme } from '../../../shared/rules/theme';
import { saveTheme } from './api/save-theme';

const STORAGE_KEY = 'theme';
/** Set when a visitor picks a theme while signed out: the next sign-in keeps that choice. */
const CHOSEN_SIGNED_OUT_KEY = 'theme-chosen-signed-out';

interface ThemeContextValue {
  theme: Theme;
  setTheme: (theme: Theme) => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function storage(action: (store: Storage) => void): void {
  try {
    action(localStorage);
  } catch {
    // Private mode: nothing is remembered.
  }
}

/** The theme picked while signed out, once (it is forgotten as it is read). */
function takeSignedOutChoice(): Theme | null {
  let chosen: Theme | null = null;
  storage((store) => {
    const stored = store.getItem(STORAGE_KEY);
    if (store.getItem(CHOSEN_SIGNED_OUT_KEY) && isTheme(stored)) chosen = stored;
    store.removeItem(CHOSEN_SIGNED_OUT_KEY);
  });
  return chosen;
}

function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.remove(...THEMES);
  root.classList.add(theme);
  root.style.colorScheme = theme === 'dark' ? 'dark' : 'light';
  try {
    localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Private mode: the theme still applies for this visit.
  }
}

interface ThemeProviderProps {
  /** The signed-in user's id and saved theme; null when signed out. */
  user: { id: string; theme: string } | null;
  children: ReactNode;
}

/**
 * At start a signed-in user's saved theme wins; otherwise the
 * valid locally stored choice; otherwise dark. A change applies at once, is stored
 * locally and, for a signed-in user, saved to the server. A theme picked while signed out
 * is kept by the sign-in that follows and saved as the user's (issue 26).
 */
export function ThemeProvider({ user, children }: ThemeProviderProps) {
  const [theme, setThemeState] = useState<Theme>(() =>
    resolveInitialTheme(user?.theme, readStored()),
  );
  const userId = user?.id ?? null;
  const savedTheme = user?.theme;

  // Both before the browser paints (layout effects), in this order: the signed-out choice is
  // read before the theme is stored, and what is shown is already the theme's and stored as
  // it, never a frame later, when something else may have written the store.
  useLayoutEffect(() => {
    const chosen = userId ? takeSignedOutChoice() : null;
    if (chosen) {
      setThemeState(chosen);
      if (chosen !== savedTheme) void saveTheme(chosen);
    } else if (isTheme(savedTheme)) setThemeState(savedTheme);
  }, [userId, savedTheme]);

  useLayoutEffect(() => applyTheme(theme), [theme]);

  const setTheme = useCallback(
    (next: Theme) => {
      setThemeState(next);
      applyTheme(next);
      if (userId) void saveTheme(next);
      else storage((store) => store.setItem(CHOSEN_SIGNED_OUT_KEY, '1'));
    },
    [userId],
  );

  const value = useMemo(() => ({ theme, setTheme }), [theme, setTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme needs a ThemeProvider');
  return value;
}
