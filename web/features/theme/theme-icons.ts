import { Moon, Palette, Sun } from 'lucide-react';
import type { Theme } from '../../../shared/rules/theme';

export const THEME_ICONS: Record<Theme, typeof Moon> = { dark: Moon, light: Sun, pastel: Palette };
