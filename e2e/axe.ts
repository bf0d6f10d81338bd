import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import axe from 'axe-core';
import { THEMES } from '../shared/rules/theme';
import { currentTheme, switchTheme } from './themes';

export type Theme = 'dark' | 'light' | 'pastel';

/**
 * The axe rules a theme can change. The three themes are CSS colour variables on the root class
 * (web/styles.css) over one and the same page, so every rule runs in the dark theme (the
 * default) and, in light and pastel, the rules that colours decide.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** axe-core's own source, run only where the page does not hold it yet. */
const AXE_ONCE = `if (typeof window.axe === 'undefined') {\n${axe.source}\n}`;

/** axe's serious and critical violations on the page (or inside `include`), by rule and node. */
export async function seriousViolations(
  page: Page,
  { theme = 'dark', include }: { theme?: Theme; include?: string } = {},
) {
  // A page without frames is checked by axe.run in the page itself, with axe-core injected once
  // per page load; by default AxeBuilder injects it anew on every call and also into a fresh
  // blank page where it merges the frames' results (axe.runPartial, then axe.finishRun), which
  // on a single frame gives the very same results at twice the time. A page with frames keeps
  // the default, which also reaches cross-origin frames.
  const singleFrame = page.frames().length === 1;
  const builder = new AxeBuilder({ page, axeSource: singleFrame ? AXE_ONCE : undefined });
  builder.setLegacyMode(singleFrame);
  if (include) builder.include(include);
  // Only the violations are read: axe then keeps one node of each passed, incomplete or
  // inapplicable rule instead of all of them, and sends that much less back over CDP
  // (every-route alone, back to back: the page's renderer 140 → 119 CPU s, the Playwright
  // side 31 → 19; with accessibility.spec.ts, 196 → 160 s of wall time). What a violation
  // reports is unchanged.
  builder.options({ resultTypes: ['violations'] });
  if (theme !== 'dark') builder.withRules(COLOUR_RULES);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}

/**
 * seriousViolations in each theme, switched in place on the page as it stands (the theme it
 * shows first, then the others), so one page load serves all three: what the page shows must
 * not change between the scans but its colours. The theme is checked again after each scan.
 */
export async function seriousViolationsInEveryTheme(
  page: Page,
  { include, signedIn = false }: { include?: string; signedIn?: boolean } = {},
) {
  const first = await currentTheme(page);
  const found = {} as Record<Theme, Awaited<ReturnType<typeof seriousViolations>>>;
  for (const theme of [first, ...THEMES.filter((t) => t !== first)]) {
    if (theme !== first) await switchTheme(page, theme, { signedIn });
    found[theme] = await seriousViolations(page, { theme, include });
    expect(await currentTheme(page), 'the theme the scan ran in').toBe(theme);
  }
  return found;
}

/** What seriousViolationsInEveryTheme finds on a page with none. */
export const NONE_IN_ANY_THEME = { dark: [], light: [], pastel: [] };
