import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planNames } from './registry';

/**
 * Two seams of the instance core (issue 41), checked on the source itself, so that a planted
 * line fails the suite:
 * - **plans by capability**: outside plans/, no code compares a billing plan's name — it asks
 *   what the plan does (`PlanCapabilities`, docs/decisions/016). The names are the
 *   registry's, so a plan added later is covered too. Building a request that names a plan
 *   (`{ plan: 'booked', … }`) is not a comparison; the database's own files (server/db: the
 *   column, its CHECKs and partial indexes, migrations) are the plans' storage.
 * - **one owner of the instance row**: only server/modules/instances/ writes `instances`
 *   (insert, update, delete — through Drizzle or in SQL text); other modules ask it.
 */

const ROOT = join(import.meta.dirname, '../../../..');
const SOURCES = ['server', 'shared', 'cli', 'web', 'agent'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'migrations']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

const files = () =>
  SOURCES.flatMap((d) => sourceFiles(join(ROOT, d))).map((path) => ({
    name: relative(ROOT, path),
    text: readFileSync(path, 'utf8'),
  }));

/** The lines of `text` that compare a plan's name, each as "line: text". */
function planNameComparisons(text: string, names: readonly string[]): string[] {
  const alt = names.map((n) => n.replace(/[^a-z_]/g, '')).join('|');
  const patterns = [
    new RegExp(`(===|!==|==|!=)\\s*['"\`](${alt})['"\`]`),
    new RegExp(`['"\`](${alt})['"\`]\\s*(===|!==|==|!=)`),
    new RegExp(`billing_?[pP]lan\\}?\\s*(=|<>|!=)\\s*'(${alt})'`),
    new RegExp(`billingPlan\\s*,\\s*['"](${alt})['"]`),
    new RegExp(`case\\s+['"](${alt})['"]\\s*:`),
    new RegExp(`\\b(${alt})\\s*:\\s*(async\\s*)?\\(`),
  ];
  return text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => patterns.some((p) => p.test(line)))
    .map(({ line, n }) => `${n}: ${line.trim()}`);
}

/** The lines of `text` that write the instances table, each as "line: text". */
function instanceWrites(text: string): string[] {
  const patterns = [
    /\.(update|insert|delete)\(\s*instances\s*\)/,
    /\b(update|insert\s+into|delete\s+from)\s+"?instances"?\b(?!_)/i,
  ];
  return text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => patterns.some((p) => p.test(line)))
    .map(({ line, n }) => `${n}: ${line.trim()}`);
}

describe('plans by capability', () => {
  it('finds a planted comparison of a plan name (the check can fail)', () => {
    const names = planNames();
    expect(planNameComparisons("if (planName(row) !== 'metered') {", names)).toHaveLength(1);
    expect(
      planNameComparisons("where billing_plan = 'booked' and end_time is null", names),
    ).toHaveLength(1);
    expect(planNameComparisons("eq(instances.billingPlan, 'metered'),", names)).toHaveLength(1);
    expect(planNameComparisons('  booked: async (req, plan, now) => {', names)).toHaveLength(1);
    expect(planNameComparisons("plan: { name: 'booked', hours: 4 },", names)).toHaveLength(0);
  });

  it('no code outside plans/ compares a plan name', () => {
    const names = planNames();
    const found = files()
      .filter(
        (f) =>
          !f.name.startsWith('server/modules/instances/plans/') && !f.name.startsWith('server/db/'),
      )
      .flatMap((f) => planNameComparisons(f.text, names).map((hit) => `${f.name}:${hit}`));
    expect(found).toEqual([]);
  });
});

describe('one owner of the instance row', () => {
  it('finds a planted write (the check can fail)', () => {
    expect(instanceWrites('await conn.update(instances).set({ apiKeyId })')).toHaveLength(1);
    expect(instanceWrites('  update instances set gpu_indexes = $1 where id = $2')).toHaveLength(1);
    expect(instanceWrites('select 1 from instances i where i.id = $1')).toHaveLength(0);
    expect(instanceWrites('insert into instance_outages (instance_id) values ($1)')).toHaveLength(
      0,
    );
  });

  it('only server/modules/instances/ writes the instances table', () => {
    const found = files()
      .filter(
        (f) =>
          !f.name.startsWith('server/modules/instances/') &&
          // Test helpers build rows the way a test needs them; the schema declares the table.
          !f.name.startsWith('server/test/') &&
          !f.name.startsWith('server/db/'),
      )
      .flatMap((f) => instanceWrites(f.text).map((hit) => `${f.name}:${hit}`));
    expect(found).toEqual([]);
  });
});
