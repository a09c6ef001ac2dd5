import PDFDocument from 'pdfkit';

// R56: table qr codes.
export interface QrCard {
  /** `<label> <table>`, as printed under the code. */
  caption: string;
  /** The table's code as PNG. */
  png: Buffer;
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
 * code, inside a thin cut line. Text streams are left uncompressed: the
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
    doc.image(card.png, x + (cardWidth - code) / 2, y + 64, { width: code, height: code });
    doc.font('Helvetica-Bold').fontSize(20);
    doc.text(card.caption, x + 12, y + 72 + code, { ...inner, height: 26 });
  });
  doc.end();
  return done;
}
