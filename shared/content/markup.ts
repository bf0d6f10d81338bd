/**
 * The simple line-by-line markup of blog articles and legal texts:
 * '#', '##', '###' headings, a line wholly in '**' is a bold line, '- ' a bullet item,
 * '1. ' a numbered item, an empty line a break, anything else a paragraph. Inside a line:
 * **strong**, `code` and [text](/path) links. The result is plain data; the web turns it
 * into React elements, so no text ever becomes HTML.
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'link'; text: string; href: string };

export type Line =
  | { kind: 'heading'; level: 1 | 2 | 3; content: Inline[] }
  | { kind: 'bold'; content: Inline[] }
  | { kind: 'bullet'; content: Inline[] }
  | { kind: 'numbered'; content: Inline[] }
  | { kind: 'blank' }
  | { kind: 'paragraph'; content: Inline[] };

export type Block =
  | Exclude<Line, { kind: 'bullet' } | { kind: 'numbered' } | { kind: 'blank' }>
  | { kind: 'list'; ordered: boolean; items: Inline[][] };

const INLINE = /\*\*(.+?)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Only our own paths, https and mail addresses become links; anything else stays text. */
export function isSafeHref(href: string): boolean {
  return (
    (href.startsWith('/') && !href.startsWith('//')) ||
    href.startsWith('https://') ||
    href.startsWith('mailto:') ||
    href.startsWith('#')
  );
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const start = match.index ?? 0;
    if (start > last) out.push({ kind: 'text', text: text.slice(last, start) });
    const [whole, strong, code, linkText, href] = match;
    if (strong !== undefined) out.push({ kind: 'strong', text: strong });
    else if (code !== undefined) out.push({ kind: 'code', text: code });
    else if (linkText !== undefined && href !== undefined && isSafeHref(href))
      out.push({ kind: 'link', text: linkText, href });
    else out.push({ kind: 'text', text: linkText ?? whole });
    last = start + whole.length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

export function parseLine(raw: string): Line {
  const line = raw.trim();
  if (line === '') return { kind: 'blank' };
  const heading = /^(#{1,3})\s+(.*)$/.exec(line);
  if (heading) {
    const level = (heading[1]?.length ?? 1) as 1 | 2 | 3;
    return { kind: 'heading', level, content: parseInline(heading[2] ?? '') };
  }
  const bold = /^\*\*([^*]+)\*\*$/.exec(line);
  if (bold) return { kind: 'bold', content: parseInline(bold[1] ?? '') };
  const bullet = /^[-*•]\s+(.*)$/.exec(line);
  if (bullet) return { kind: 'bullet', content: parseInline(bullet[1] ?? '') };
  const numbered = /^\d+[.)]\s+(.*)$/.exec(line);
  if (numbered) return { kind: 'numbered', content: parseInline(numbered[1] ?? '') };
  return { kind: 'paragraph', content: parseInline(line) };
}

/** Parses line by line, then gathers neighbouring items into lists (a list needs its <ul>). */
export function parseMarkup(source: string): Block[] {
  const blocks: Block[] = [];
  for (const line of source.split(/\r?\n/).map(parseLine)) {
    if (line.kind === 'blank') continue;
    if (line.kind === 'bullet' || line.kind === 'numbered') {
      const ordered = line.kind === 'numbered';
      const previous = blocks.at(-1);
      if (previous?.kind === 'list' && previous.ordered === ordered)
        previous.items.push(line.content);
      else blocks.push({ kind: 'list', ordered, items: [line.content] });
      continue;
    }
    blocks.push(line);
  }
  return blocks;
}

/** The words a reader reads: markup symbols and link targets do not count. */
export function countWords(source: string): number {
  const text = source
    .replace(/\[([^\]]+)\]\([^)\s]+\)/g, '$1')
    .replace(/^\s*(#{1,3}|[-*•]|\d+[.)])\s+/gm, '')
    .replace(/\*\*|`/g, '');
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

export const WORDS_PER_MINUTE = 200;

/** Whole minutes at 200 words a minute, rounded up, at least one: '9 min read'. */
export function readTime(source: string): string {
  const minutes = Math.max(1, Math.ceil(countWords(source) / WORDS_PER_MINUTE));
  return `${minutes} min read`;
}

/** The text of a piece of markup as a reader sees it, for searching. */
export function plainText(source: string): string {
  return parseMarkup(source)
    .flatMap((block) => (block.kind === 'list' ? block.items : [block.content]))
    .map((parts) => parts.map((part) => part.text).join(''))
    .join('\n');
}

/** A heading's anchor: 'Refunds & Credits' → 'refunds-credits'. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The top-level ('#') headings of a text, with their anchors, for a table of contents. */
export function outline(source: string): { id: string; title: string }[] {
  return parseMarkup(source).flatMap((block) => {
    if (block.kind !== 'heading' || block.level !== 1) return [];
    const title = block.content.map((part) => part.text).join('');
    return [{ id: slugify(title), title }];
  });
}
