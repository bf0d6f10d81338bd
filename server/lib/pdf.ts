/**
 * A small PDF writer for invoices and receipts: pages of text in the standard Helvetica fonts
 * (every PDF reader has them, nothing is embedded), uncompressed, A4. Enough for documents of
 * lines and columns; nothing else.
 */

export interface PdfText {
  x: number;
  /** From the page's top, in points. */
  y: number;
  text: string;
  size?: number;
  bold?: boolean;
  /** right: the text ends at x. */
  align?: 'left' | 'right';
  /** A grey line under the text's baseline from x to this x (a table's rule). */
  ruleTo?: number;
}

export const PAGE_WIDTH = 595;
export const PAGE_HEIGHT = 842;

/** Helvetica's advance widths (1/1000 em) for characters 32 to 126 (its AFM). */
const WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
  611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
  222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** WinAnsi codes of the few characters past ASCII our texts use; anything else becomes "?". */
const WIN_ANSI: Record<string, number> = {
  '—': 0x97,
  '–': 0x96,
  '’': 0x92,
  '‘': 0x91,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '·': 0xb7,
  '×': 0xd7,
  '…': 0x85,
};

function winAnsi(text: string): number[] {
  return [...text].map((ch) => {
    const code = ch.codePointAt(0) ?? 63;
    if (code >= 32 && code <= 126) return code;
    if (code >= 0xa0 && code <= 0xff) return code;
    return WIN_ANSI[ch] ?? 63;
  });
}

/** The text's width in points (bold is taken as 5% wider: close enough to align numbers). */
export function textWidth(text: string, size: number, bold = false): number {
  const units = winAnsi(text).reduce(
    (sum, code) => sum + (code >= 32 && code <= 126 ? (WIDTHS[code - 32] ?? 556) : 556),
    0,
  );
  return (units * size * (bold ? 1.05 : 1)) / 1000;
}

/** A PDF string literal: (…) with its specials escaped, in WinAnsi bytes. */
function literal(text: string): string {
  return `(${winAnsi(text)
    .map((code) => {
      if (code === 40 || code === 41 || code === 92) return `\\${String.fromCharCode(code)}`;
      if (code > 126) return `\\${code.toString(8).padStart(3, '0')}`;
      return String.fromCharCode(code);
    })
    .join('')})`;
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();

function pageContent(texts: readonly PdfText[]): string {
  const ops: string[] = [];
  for (const t of texts) {
    const size = t.size ?? 10;
    const x = t.align === 'right' ? t.x - textWidth(t.text, size, t.bold) : t.x;
    const y = PAGE_HEIGHT - t.y;
    ops.push(
      `BT /${t.bold ? 'F2' : 'F1'} ${num(size)} Tf ${num(x)} ${num(y)} Td ${literal(t.text)} Tj ET`,
    );
    if (t.ruleTo !== undefined) {
      ops.push(`0.8 G 0.5 w ${num(t.x)} ${num(y - 4)} m ${num(t.ruleTo)} ${num(y - 4)} l S 0 G`);
    }
  }
  return ops.join('\n');
}

/** The PDF file of these pages (each a list of texts), with a title in its information. */
export function pdfDocument(pages: readonly (readonly PdfText[])[], title: string): Buffer {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pagesId = add('');
  const regular = add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  );
  const bold = add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  );
  const info = add(`<< /Title ${literal(title)} /Producer (RentGPU) >>`);
  const kids: number[] = [];
  for (const texts of pages.length > 0 ? pages : [[]]) {
    const content = pageContent(texts);
    const stream = add(
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    );
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >> >> /Contents ${stream} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] =
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${offset.toString().padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * Lays lines of text out top to bottom over as many pages as they need: each row is drawn at
 * the current height, and a new page begins when the next row would pass the bottom margin.
 */
export function flowPages(
  rows: readonly { height: number; texts: (y: number) => PdfText[] }[],
  margin = 56,
): PdfText[][] {
  const pages: PdfText[][] = [[]];
  let y = margin;
  for (const row of rows) {
    if (y + row.height > PAGE_HEIGHT - margin && (pages.at(-1)?.length ?? 0) > 0) {
      pages.push([]);
      y = margin;
    }
    pages.at(-1)?.push(...row.texts(y + row.height));
    y += row.height;
  }
  return pages;
}
