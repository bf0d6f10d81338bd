import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countWords,
  isSafeHref,
  outline,
  parseInline,
  parseLine,
  parseMarkup,
  plainText,
  readTime,
  slugify,
} from './markup';

describe('parseLine', () => {
  it('reads the three heading levels, bold lines, items, blanks and paragraphs', () => {
    expect(parseLine('# Top')).toEqual({
      kind: 'heading',
      level: 1,
      content: [{ kind: 'text', text: 'Top' }],
    });
    expect(parseLine('## Middle')).toMatchObject({ kind: 'heading', level: 2 });
    expect(parseLine('### Low')).toMatchObject({ kind: 'heading', level: 3 });
    expect(parseLine('**Key point**')).toEqual({
      kind: 'bold',
      content: [{ kind: 'text', text: 'Key point' }],
    });
    expect(parseLine('- item')).toMatchObject({ kind: 'bullet' });
    expect(parseLine('2. step')).toMatchObject({ kind: 'numbered' });
    expect(parseLine('   ')).toEqual({ kind: 'blank' });
    expect(parseLine('Plain words.')).toMatchObject({ kind: 'paragraph' });
    expect(parseLine('#hashtag is not a heading')).toMatchObject({ kind: 'paragraph' });
  });

  it('keeps a line that only starts and ends in bold as a paragraph with two strong parts', () => {
    expect(parseLine('**A** and **B**')).toEqual({
      kind: 'paragraph',
      content: [
        { kind: 'strong', text: 'A' },
        { kind: 'text', text: ' and ' },
        { kind: 'strong', text: 'B' },
      ],
    });
  });
});

describe('parseInline', () => {
  it('finds strong text, code and safe links', () => {
    expect(parseInline('Run `rentgpu list`, then [rent one](/marketplace) **today**.')).toEqual([
      { kind: 'text', text: 'Run ' },
      { kind: 'code', text: 'rentgpu list' },
      { kind: 'text', text: ', then ' },
      { kind: 'link', text: 'rent one', href: '/marketplace' },
      { kind: 'text', text: ' ' },
      { kind: 'strong', text: 'today' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('turns unsafe link targets into plain text', () => {
    expect(parseInline('[click](javascript:alert(1))')).toEqual([
      { kind: 'text', text: 'click' },
      { kind: 'text', text: ')' },
    ]);
    expect(parseInline('[x](//evil.example)')).toEqual([{ kind: 'text', text: 'x' }]);
    expect(isSafeHref('https://rentgpu.dev')).toBe(true);
    expect(isSafeHref('mailto:support@rentgpu.dev')).toBe(true);
    expect(isSafeHref('http://plain.example')).toBe(false);
  });

  it('never loses or invents characters of plain text', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/[*`[\]]/.test(s)),
        (text) => {
          const parts = parseInline(text);
          expect(parts.map((p) => ('text' in p ? p.text : '')).join('')).toBe(text);
        },
      ),
    );
  });
});

describe('parseMarkup', () => {
  it('gathers neighbouring items into one list and drops blank lines', () => {
    const blocks = parseMarkup('## Steps\n\n1. One\n2. Two\n\n- a\n- b\nAfter');
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'list', 'list', 'paragraph']);
    expect(blocks[1]).toMatchObject({
      ordered: true,
      items: [[{ text: 'One' }], [{ text: 'Two' }]],
    });
    expect(blocks[2]).toMatchObject({ ordered: false });
  });
});

describe('readTime', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

  it('rounds up to whole minutes at 200 words a minute, at least one', () => {
    expect(readTime('')).toBe('1 min read');
    expect(readTime(words(200))).toBe('1 min read');
    expect(readTime(words(201))).toBe('2 min read');
    expect(readTime(words(1700))).toBe('9 min read');
    expect(readTime(words(1801))).toBe('10 min read');
  });

  it('counts words, not markup', () => {
    expect(countWords('## Two words\n- **bold** [link text](/marketplace)\n\n`code`')).toBe(6);
    expect(countWords('— 90% - $2.50')).toBe(2);
  });
});

describe('plainText, slugify and outline', () => {
  it('reads text without markup, for searching', () => {
    expect(
      plainText(
        '## Title\n- Use **SSH** keys and [the docs](/documentation).\n\nRun `rentgpu list`',
      ),
    ).toBe('Title\nUse SSH keys and the docs.\nRun rentgpu list');
  });

  it('makes anchors and a table of contents from the top-level headings', () => {
    expect(slugify('5. Refunds & Credits')).toBe('5-refunds-credits');
    expect(outline('# One\ntext\n## Sub\n# Two & Three')).toEqual([
      { id: 'one', title: 'One' },
      { id: 'two-three', title: 'Two & Three' },
    ]);
  });
});
