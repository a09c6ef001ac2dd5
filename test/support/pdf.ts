/**
 * Reads the text of the service's PDFs (pdfkit, uncompressed streams,
 * embedded fonts): each shown string is a run of 2-byte glyph ids of the
 * current font, turned back into characters with that font's ToUnicode map.
 */

/** One text object as drawn: the font's name, its glyphs as text, in drawing order. */
export interface PdfText {
  /** The embedded font, e.g. `NotoSans-Bold` (without the subset prefix). */
  font: string;
  /** What each glyph stands for, left to right as drawn (a ligature is several characters). */
  glyphs: string[];
  /** The glyphs' ids in the embedded font: one letter in two forms is two ids. */
  ids: number[];
  text: string;
}

function objects(raw: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const match of raw.matchAll(/(\d+) 0 obj\s([\s\S]*?)endobj/g)) {
    found.set(Number(match[1]), match[2]);
  }
  return found;
}

function streamOf(body: string): string {
  const match = /stream\r?\n([\s\S]*?)\r?\nendstream/.exec(body);
  return match ? match[1] : '';
}

function hexText(hex: string): string {
  let text = '';
  for (let i = 0; i + 4 <= hex.length; i += 4) {
    text += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  }
  return text;
}

/** A ToUnicode CMap: glyph id → the characters it stands for. */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    // One entry a line: `<start> <end> [<u1> <u2> …]` or `<start> <end> <first>`.
    for (const line of block[1].split('\n')) {
      // A ligature's entry holds several characters: `<0644 0623>`.
      const codes = [...line.matchAll(/<([0-9a-fA-F\s]*)>/g)].map((m) => m[1].replace(/\s/g, ''));
      if (codes.length < 3) continue;
      const start = parseInt(codes[0], 16);
      if (line.includes('[')) {
        codes.slice(2).forEach((hex, index) => map.set(start + index, hexText(hex)));
      } else {
        const [end, first] = [parseInt(codes[1], 16), parseInt(codes[2], 16)];
        for (let id = start; id <= end; id++) map.set(id, String.fromCodePoint(first + id - start));
      }
    }
  }
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const entry of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]*)>/g)) {
      map.set(parseInt(entry[1], 16), hexText(entry[2]));
    }
  }
  return map;
}

/** Every text object of every page, in the order the content streams draw them. */
export function pdfTexts(pdf: Buffer): PdfText[] {
  const raw = pdf.toString('latin1');
  const objs = objects(raw);
  // pdfkit names each font once per document (/F1, /F2 …) in the pages' resources.
  const fonts = new Map<string, { name: string; map: Map<number, string> }>();
  for (const [, resource, ref] of raw.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
    const body = objs.get(Number(ref)) ?? '';
    const base = /\/BaseFont \/(?:[A-Z]{6}\+)?([^\s/]+)/.exec(body)?.[1] ?? resource;
    const unicodeRef = /\/ToUnicode (\d+) 0 R/.exec(body)?.[1];
    const map = unicodeRef ? toUnicode(streamOf(objs.get(Number(unicodeRef)) ?? '')) : new Map();
    fonts.set(resource, { name: base, map });
  }
  const texts: PdfText[] = [];
  for (const [, , body] of raw.matchAll(/(\d+) 0 obj\s([\s\S]*?)endobj/g)) {
    const content = streamOf(body);
    if (!/\bBT\b/.test(content)) continue;
    let font = { name: '', map: new Map<number, string>() };
    for (const block of content.matchAll(/BT([\s\S]*?)ET/g)) {
      const glyphs: string[] = [];
      const ids: number[] = [];
      for (const op of block[1].matchAll(
        /\/(F\d+) [\d.]+ Tf|\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g,
      )) {
        if (op[1]) {
          font = fonts.get(op[1]) ?? font;
          continue;
        }
        const shown = op[2] ?? `<${op[3]}>`;
        for (const hex of shown.matchAll(/<([0-9a-fA-F]*)>/g)) {
          for (let i = 0; i + 4 <= hex[1].length; i += 4) {
            const id = parseInt(hex[1].slice(i, i + 4), 16);
            ids.push(id);
            glyphs.push(font.map.get(id) ?? '\ufffd');
          }
        }
      }
      if (glyphs.length) texts.push({ font: font.name, glyphs, ids, text: glyphs.join('') });
    }
  }
  return texts;
}

/** The pages of a PDF (its page objects). */
export function pageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
}

/** The fonts a PDF embeds, by name (without the subset prefix). */
export function embeddedFonts(pdf: Buffer): string[] {
  const names = [...pdf.toString('latin1').matchAll(/\/BaseFont \/(?:[A-Z]{6}\+)?([^\s/]+)/g)];
  return [...new Set(names.map((match) => match[1]))].sort();
}
