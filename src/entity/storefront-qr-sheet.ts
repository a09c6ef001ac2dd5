import PDFDocument from 'pdfkit';

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

/**
 * A printable A4 sheet of table cards, four to a page: each card shows the
 * business's title, the menu's title, its caption ("Table 4") and its QR
 * code drawn in vector, inside a thin cut line. Text streams are left uncompressed: the
 * sheet is small, and its text stays searchable by any tool.
 */
export function qrSheetPdf(business: string, menu: string, cards: QrCard[]): Promise<Buffer> {
  const doc = new PDFDocument({
    size: A4,
    margin: MARGIN,
    compress: false,
    autoFirstPage: false,
    info: { Title: `${business} – ${menu} – table cards`, Creator: business },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const cardWidth = (A4[0] - MARGIN * 2) / COLUMNS;
  const cardHeight = (A4[1] - MARGIN * 2) / ROWS;
  const code = Math.min(cardWidth, cardHeight) - 130;
  cards.forEach((card, index) => {
    const slot = index % CARDS_PER_PAGE;
    if (slot === 0) doc.addPage();
    const x = MARGIN + (slot % COLUMNS) * cardWidth;
    const y = MARGIN + Math.floor(slot / COLUMNS) * cardHeight;
    doc.save().lineWidth(0.5).dash(3, { space: 3 }).strokeColor('#999999');
    doc.rect(x, y, cardWidth, cardHeight).stroke().restore();
    const inner = { width: cardWidth - 24, align: 'center' as const, lineBreak: false };
    doc.fillColor('#000000').font('Helvetica-Bold').fontSize(16);
    doc.text(business, x + 12, y + 16, { ...inner, ellipsis: true, height: 20 });
    doc.font('Helvetica').fontSize(12);
    doc.text(menu, x + 12, y + 40, { ...inner, ellipsis: true, height: 16 });
    drawCode(doc, card.modules, x + (cardWidth - code) / 2, y + 64, code);
    doc.font('Helvetica-Bold').fontSize(20);
    doc.text(card.caption, x + 12, y + 72 + code, { ...inner, height: 26 });
  });
  doc.end();
  return done;
}
