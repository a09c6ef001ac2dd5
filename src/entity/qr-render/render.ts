import QRCode from 'qrcode';
import { qrSheetPdf } from './sheet-pdf';

/**
 * What the renderer makes: a storefront QR code as SVG or PNG, or the sheet
 * of table cards. `base` is the storefront address without a table, so that
 * an address too long for a QR code is blamed on the right part.
 */
export type RenderJob =
  | { kind: 'svg'; base: string; url: string }
  | { kind: 'png'; base: string; url: string; size: number }
  | {
      kind: 'sheet';
      base: string;
      business: string;
      menu: string;
      cards: Array<{ caption: string; url: string }>;
    };

/**
 * The bytes, or which part of the address made it too long for a QR code:
 * the meta_keys (the address without a table is already too long) or the
 * table.
 */
export type RenderOutcome =
  { ok: true; body: Uint8Array } | { ok: false; tooLong: 'meta_key' | 'table' };

/** Quiet zone around the code, in modules: the four the QR standard asks for. */
const MARGIN = 4;
const LEVEL = 'M' as const;

class TooLong extends Error {
  constructor(readonly url: string) {
    super('too long for a QR code');
  }
}

/** The library's refusal of data beyond the largest code (version 40). */
function isTooBig(error: unknown): boolean {
  return error instanceof Error && /too big/i.test(error.message);
}

async function encoding<T>(url: string, make: () => T | Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    if (isTooBig(error)) throw new TooLong(url);
    throw error;
  }
}

function fits(url: string): boolean {
  try {
    QRCode.create(url, { errorCorrectionLevel: LEVEL });
    return true;
  } catch (error) {
    if (isTooBig(error)) return false;
    throw error;
  }
}

async function bytesOf(job: RenderJob): Promise<Uint8Array> {
  switch (job.kind) {
    case 'svg': {
      const text = await encoding(job.url, () =>
        QRCode.toString(job.url, { type: 'svg', errorCorrectionLevel: LEVEL, margin: MARGIN }),
      );
      return Buffer.from(text);
    }
    case 'png':
      return encoding(job.url, () =>
        QRCode.toBuffer(job.url, {
          type: 'png',
          errorCorrectionLevel: LEVEL,
          margin: MARGIN,
          width: job.size,
        }),
      );
    case 'sheet': {
      const cards = [];
      for (const card of job.cards) {
        const { modules } = await encoding(card.url, () =>
          QRCode.create(card.url, { errorCorrectionLevel: LEVEL }),
        );
        cards.push({ caption: card.caption, modules });
      }
      return qrSheetPdf(job.business, job.menu, cards);
    }
  }
}

/** Renders a job; an address too long for a QR code is an outcome, not an error. */
export async function render(job: RenderJob): Promise<RenderOutcome> {
  try {
    return { ok: true, body: await bytesOf(job) };
  } catch (error) {
    if (!(error instanceof TooLong)) throw error;
    const blame = error.url === job.base || !fits(job.base) ? 'meta_key' : 'table';
    return { ok: false, tooLong: blame };
  }
}
