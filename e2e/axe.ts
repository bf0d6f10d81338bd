import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export type Theme = 'dark' | 'light' | 'pastel';

/**
 * The axe rules a theme can change. The three themes are CSS colour variables on the root class
 * (web/styles.css) over one and the same page, so every rule runs in the dark theme (the
 * default) and, in light and pastel, the rules that colours decide.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** axe's serious and critical violations on the page (or inside `include`), by rule and node. */
export async function seriousViolations(
  page: Page,
  { theme = 'dark', include }: { theme?: Theme; include?: string } = {},
) {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  if (theme !== 'dark') builder.withRules(COLOUR_RULES);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}
