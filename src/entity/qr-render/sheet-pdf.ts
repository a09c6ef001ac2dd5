import PDFDocument from 'pdfkit';
import { sheetFonts } from './sheet-fonts';
import { FontRole, textRuns } from './text-runs';

// R56: table qr codes.

/** A QR code's modules: `size` × `size`, row by row, 1 for dark. */
export interface QrModules {
  size: number;
  data: ArrayLike<number>;
}

export interface QrCard {
  /** `<label> <table>`, as printed under the code. */
  caption: string;
  /** The table's code. */
  modules: QrModules;
}

/** Quiet zone around a code, in modules: the four the QR standard asks for. */
const QUIET_ZONE = 4;

/**
 * Draws a code as filled rectangles, one per run of dark modules in a row,
 * `side` points wide with its quiet zone: vector, so it prints sharp at any
 * size and costs a few hundred path operations instead of an image.
 */
function drawCode(doc: PDFKit.PDFDocument, modules: QrModules, x: number, y: number, side: number) {
  const module = side / (modules.size + QUIET_ZONE * 2);
  const origin = (at: number, index: number) => at + (index + QUIET_ZONE) * module;
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.data[row * modules.size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.data[row * modules.size + col]) col++;
      doc.rect(origin(x, start), origin(y, row), (col - start) * module, module);
    }
  }
  doc.fill('#000000');
}

/** A4 in PDF points (1/72 inch). */
const A4: [number, number] = [595.28, 841.89];
const MARGIN = 36;
const COLUMNS = 2;
const ROWS = 2;
export const CARDS_PER_PAGE = COLUMNS * ROWS;
const ELLIPSIS = '…';

/**
 * Lays a run out whole. Without `features`, pdfkit lays text out a word at
 * a time and puts the words side by side left to right, which reverses the
 * word order of right-to-left text; with them (none beyond the font's
 * defaults), the font engine lays out the whole run and orders it itself.
 */
const WHOLE_RUN = { features: [] as PDFKit.Mixins.OpenTypeFeatures[] };

/** A line of text laid out: its runs in drawing order with their fonts and widths. */
interface Line {
  runs: Array<{ text: string; font: string; width: number }>;
  width: number;
}

function fontName(role: FontRole, bold: boolean): string {
  return `${role}${bold ? '-bold' : ''}`;
}

/**
 * `text` laid out in the sheet's fonts at `size`, cut at a character
 * boundary (a letter with its accents stays whole) and ended with an
 * ellipsis when it is wider than `width`.
 */
function layOut(
  doc: PDFKit.PDFDocument,
  text: string,
  size: number,
  bold: boolean,
  width: number,
): Line {
  const { coverage } = sheetFonts();
  const measure = (value: string): Line => {
    const runs = textRuns(value, coverage).map((run) => {
      const font = fontName(run.font, bold);
      const measured = doc.font(font).fontSize(size).widthOfString(run.text, WHOLE_RUN);
      return { text: run.text, font, width: measured };
    });
    return { runs, width: runs.reduce((sum, run) => sum + run.width, 0) };
  };
  const whole = measure(text);
  if (whole.width <= width) return whole;
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)];
  const cut = (count: number) =>
    measure(
      `${graphemes
        .slice(0, count)
        .map((g) => g.segment)
        .join('')
        .trimEnd()}${ELLIPSIS}`,
    );
  // The most graphemes that fit with the ellipsis: a binary search, each step one measure.
  let [low, high] = [0, graphemes.length - 1];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (cut(middle).width <= width) low = middle;
    else high = middle - 1;
  }
  return cut(low);
}

/** Draws a laid-out line centred in [x, x + width]. */
function drawLine(
  doc: PDFKit.PDFDocument,
  line: Line,
  size: number,
  x: number,
  y: number,
  width: number,
) {
  let at = x + Math.max(0, (width - line.width) / 2);
  for (const run of line.runs) {
    doc
      .font(run.font)
      .fontSize(size)
      .text(run.text, at, y, { ...WHOLE_RUN, lineBreak: false });
    at += run.width;
  }
}

/**
 * Opens a document whose bytes depend on its content alone: pdfkit stamps
 * the time of the build as CreationDate (in the Info dictionary and in the
 * file's ID), so the same sheet would differ on every request and no ETag
 * could hold. The Info dictionary gets no date at all; the ID is computed
 * from a fixed one.
 */
function stableDocument(title: string, creator: string): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: A4,
    margin: MARGIN,
    compress: false,
    autoFirstPage: false,
    info: { Title: title, Creator: creator, CreationDate: new Date(0) },
  });
  // Read by pdfkit's XMP metadata (not written at PDF 1.3), left out of the Info dictionary.
  Object.defineProperty(doc.info, 'CreationDate', { value: new Date(0), enumerable: false });
  const fonts = sheetFonts();
  doc.registerFont('latin', fonts.latin);
  doc.registerFont('latin-bold', fonts.latinBold);
  doc.registerFont('arabic', fonts.arabic);
  doc.registerFont('arabic-bold', fonts.arabicBold);
  return doc;
}

/**
 * A printable A4 sheet of table cards, four to a page: each card shows the
 * business's title, the menu's title, its caption ("Table 4") and its QR
 * code drawn in vector, inside a thin cut line. Titles print in any script
 * the embedded fonts cover (see sheetFonts), Arabic shaped and right to
 * left. The same inputs give the same bytes. Text streams are left
 * uncompressed: the sheet stays readable by any tool.
 */
export function qrSheetPdf(business: string, menu: string, cards: QrCard[]): Promise<Buffer> {
  const doc = stableDocument(`${business} – ${menu} – table cards`, business);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const cardWidth = (A4[0] - MARGIN * 2) / COLUMNS;
  const cardHeight = (A4[1] - MARGIN * 2) / ROWS;
  const code = Math.min(cardWidth, cardHeight) - 130;
  const inner = cardWidth - 24;
  // The titles are the same on every card: laid out once.
  const businessLine = layOut(doc, business, 16, true, inner);
  const menuLine = layOut(doc, menu, 12, false, inner);
  cards.forEach((card, index) => {
    const slot = index % CARDS_PER_PAGE;
    if (slot === 0) doc.addPage();
    const x = MARGIN + (slot % COLUMNS) * cardWidth;
    const y = MARGIN + Math.floor(slot / COLUMNS) * cardHeight;
    doc.save().lineWidth(0.5).dash(3, { space: 3 }).strokeColor('#999999');
    doc.rect(x, y, cardWidth, cardHeight).stroke().restore();
    doc.fillColor('#000000');
    drawLine(doc, businessLine, 16, x + 12, y + 14, inner);
    drawLine(doc, menuLine, 12, x + 12, y + 40, inner);
    drawCode(doc, card.modules, x + (cardWidth - code) / 2, y + 64, code);
    drawLine(doc, layOut(doc, card.caption, 20, true, inner), 20, x + 12, y + 70 + code, inner);
  });
  doc.end();
  return done;
}
