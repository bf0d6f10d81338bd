import { describe, expect, it, vi } from 'vitest';
import { reliabilitySlotIds, withReliability } from './page-query';
import { catalogueText, type ListingFilter, pageQueryOf } from './page-statements';

const market = (filter: Partial<ListingFilter>): ListingFilter => ({
  limit: 50,
  view: 'market',
  now: new Date('2026-01-01T00:00:00Z'),
  ...filter,
});

describe('pageQueryOf', () => {
  it('writes a catalogue GPU name into a named statement, one for every case of it', () => {
    const upper = pageQueryOf(market({ search: 'H100', gpuType: 'H100', sort: 'price-asc' }));
    const lower = pageQueryOf(market({ search: 'h100', gpuType: 'h100', sort: 'price-asc' }));
    expect(upper.name).toMatch(/^listings_page_text_\d+$/);
    expect(lower.name).toBe(upper.name);
    expect(lower.statement).toBe(upper.statement);
    expect(upper.statement.text).toContain("l.search_text like lower('%h100%')");
    expect(upper.statement.text).toContain("l.model ilike '%h100%'");
    // Its only value is the time reliability is measured at.
    expect(upper.statement.params).toEqual(['now']);
    expect(upper.values).toEqual(['2026-01-01T00:00:00.000Z']);
    // The type alone, and a model name with a space, are statements of their own.
    const type = pageQueryOf(market({ gpuType: 'RTX 4090' }));
    expect(type.name).toMatch(/^listings_page_text_\d+$/);
    expect(type.name).not.toBe(upper.name);
    expect(type.statement.text).toContain("l.model ilike '%rtx 4090%'");
  });

  it('sends any other text as a value of an unnamed statement that only chooses the ids', () => {
    const other = pageQueryOf(market({ search: 'city 42', gpuType: 'H100', sort: 'price-desc' }));
    // Planned for its text every time: one table, its conditions, the sort and the limit.
    expect(other.choose?.values).toEqual(['%city 42%']);
    expect(other.choose?.text).toMatch(/^select l\.id\s+from gpu_listings l/);
    expect(other.choose?.text).toContain('l.search_text like lower($1)');
    expect(other.choose?.text).toContain("l.model ilike '%h100%'");
    expect(other.choose?.text).toContain('order by (- l.hourly_rate_micros), l.id limit 51');
    expect(other.choose?.text).not.toContain('market_json');
    // The page itself: named, by ids, in the same order, measuring reliability itself.
    expect(other.name).toMatch(/^listings_page_ids_\d+$/);
    expect(other.statement.params).toEqual(['now', 'ids']);
    expect(other.statement.text).toContain('l.id = any($2::int[])');
    expect(other.statement.text).toContain('order by (- l.hourly_rate_micros), l.id limit 51');
    expect(other.statement.text).not.toContain('reliabilityOf');
    expect(other.statement.text).not.toContain('search_text');
    expect(other.valuesWith([4, 9])).toEqual(['2026-01-01T00:00:00.000Z', [4, 9]]);
    // Another text of the same view, sort and limit shares the page statement.
    const more = pageQueryOf(market({ search: 'acme', sort: 'price-desc' }));
    expect(more.name).toBe(other.name);
    expect(more.choose?.text).not.toContain('ilike');
    expect(pageQueryOf(market({ search: 'A100' })).choose).toBeUndefined();
    const quoted = pageQueryOf(market({ gpuType: "H100' or true --" }));
    expect(quoted.choose?.values[0]).toBe("%H100' or true --%");
    expect(quoted.choose?.text).not.toContain('or true');
    const escaped = pageQueryOf(market({ search: 'a100_%' }));
    expect(escaped.choose?.values[0]).toBe('%a100\\_\\%%');
  });

  it('writes a text asked often into a named statement of its own, its quote doubled', async () => {
    // A fresh copy of the module: its counts and its budget of statements are the process's.
    vi.resetModules();
    const fresh = await import('./page-statements');
    const ask = (text: string) => fresh.pageQueryOf(market({ search: text, sort: 'price-asc' }));
    expect(ask("O'Hare \\ 50%").choose).toBeDefined();
    expect(ask("o'hare \\ 50%").choose).toBeDefined();
    const hot = ask("O'HARE \\ 50%"); // the third ask, case aside
    expect(hot.choose).toBeUndefined();
    expect(hot.name).toMatch(/^listings_page_hot_\d+$/);
    expect(hot.statement.text).toContain("l.search_text like lower('%o''hare \\\\ 50\\%%')");
    expect(hot.statement.params).toEqual(['now']);
    expect(ask("o'hare \\ 50%").name).toBe(hot.name);
    // With a GPU type sent as a value, or in characters outside printable ASCII, never.
    for (let i = 0; i < 4; i += 1) {
      expect(fresh.pageQueryOf(market({ search: 'osaka', gpuType: 'H100x' })).choose).toBeDefined();
      expect(ask('Ｈ100 tokyo').choose).toBeDefined();
    }
  });

  it('names a shape without text once, with the values of its cursor as parameters', () => {
    const first = pageQueryOf(market({ sort: 'memory', after: { value: '80', id: 7 } }));
    expect(first.name).toMatch(/^listings_page_\d+$/);
    expect(first.values).toEqual(['80', 7, '2026-01-01T00:00:00.000Z']);
    expect(pageQueryOf(market({ sort: 'memory', after: { value: '24', id: 9 } })).name).toBe(
      first.name,
    );
  });
});

describe('catalogueText', () => {
  it('is a GPU name of the type filter or of the listable models, case aside', () => {
    for (const text of ['H100', 'a100', 'RTX 4090', 'a100 80gb', 'T4']) {
      expect(catalogueText(text)).toBe(true);
    }
    for (const text of ['All GPU Types', 'H10', 'H100 ', 'city 42', 'Ｈ100', "h100'"]) {
      expect(catalogueText(text)).toBe(false);
    }
  });
});

describe('reliability slots', () => {
  it('names each listing of a page, and is filled with its measured reliability or none', () => {
    const page =
      '[{"id":7,"reliability":{"reliabilityOf":7},"model":"H100"},\n{"id":12,"reliability":{"reliabilityOf":12}}]';
    expect(reliabilitySlotIds(page)).toEqual([7, 12]);
    const filled = withReliability(
      page,
      new Map([[7, '{"uptimePercent":99.5,"windowDays":30,"observedDays":30}']]),
    );
    expect(JSON.parse(filled)).toEqual([
      {
        id: 7,
        reliability: { uptimePercent: 99.5, windowDays: 30, observedDays: 30 },
        model: 'H100',
      },
      { id: 12, reliability: { uptimePercent: null, windowDays: 30, observedDays: 0 } },
    ]);
  });

  it('never matches inside a string', () => {
    const page = JSON.stringify([{ model: '"reliability":{"reliabilityOf":7}' }]);
    expect(reliabilitySlotIds(page)).toEqual([]);
  });
});
