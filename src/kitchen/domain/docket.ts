/*
 * Dockets: a ticket as text for a receipt printer, 32 characters a line on
 * 58 mm paper, 42 or 48 on 80 mm. Pure functions of the ticket; ASCII only,
 * so any printer's code page shows every character.
 */

export interface DocketLine {
  title_name: string | null;
  quantity: number;
  options: Array<Record<string, unknown>>;
  item_note: string | null;
  allergens: string[];
}

export interface DocketTicket {
  station: string;
  /** The station's title when the kitchen names one. */
  station_title?: string;
  kind: 'new' | 'void';
  order_reference: string;
  fulfilment_type: string;
  table: string | null;
  created_at: string;
  requested_time: string | null;
  general_note: string | null;
  lines: DocketLine[];
  /** The business's IANA time zone for the times; UTC when absent. */
  time_zone?: string;
}

const SPECIAL: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  '₦': 'N',
  '€': 'EUR',
  '£': 'GBP',
  '¢': 'c',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '–': '-',
  '—': '-',
  '…': '...',
  '•': '*',
  '×': 'x',
  '½': '1/2',
  '¼': '1/4',
  '¾': '3/4',
  '°': 'o',
};

// R89: dockets are ASCII within their width.
/**
 * The closest ASCII form of a text: accents taken off (`é` → `e`), a few
 * letters and signs spelled out (`ß` → `ss`, `₦` → `N`), control characters
 * as spaces, and anything else as `?` — a character is replaced, never
 * dropped.
 */
export function toAscii(text: string): string {
  let out = '';
  for (const char of text.normalize('NFKC')) {
    if (char >= ' ' && char <= '~') {
      out += char;
      continue;
    }
    if (char === '\t' || char === '\n' || char === '\r') {
      out += ' ';
      continue;
    }
    if (SPECIAL[char] !== undefined) {
      out += SPECIAL[char];
      continue;
    }
    const stripped = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    if (/^[ -~]+$/.test(stripped)) out += stripped;
    else if (/\p{Z}/u.test(char)) out += ' ';
    else if (/\p{C}/u.test(char)) out += ' ';
    else out += '?';
  }
  return out;
}

/** Words wrapped to `width`, continuation lines indented by `indent`; long words are cut. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let current = '';
  const words = toAscii(text).split(/\s+/).filter(Boolean);
  for (let word of words) {
    const prefix = lines.length === 0 && current === '' ? '' : indent;
    for (;;) {
      const room = width - (current === '' ? prefix.length : current.length + 1);
      if (word.length <= room) {
        current = current === '' ? prefix + word : `${current} ${word}`;
        break;
      }
      if (current !== '') {
        lines.push(current);
        current = '';
        continue;
      }
      const cut = Math.max(1, width - indent.length);
      lines.push((lines.length === 0 ? '' : indent) + word.slice(0, cut));
      word = word.slice(cut);
      if (word === '') break;
    }
  }
  if (current !== '') lines.push(current);
  return lines.length ? lines : [''];
}

function center(text: string, width: number): string {
  const ascii = toAscii(text).slice(0, width);
  return ' '.repeat(Math.floor((width - ascii.length) / 2)) + ascii;
}

/** Two columns: `left` then `right` flush right, or wrapped when they do not fit. */
function pair(left: string, right: string, width: number): string[] {
  const l = toAscii(left);
  const r = toAscii(right);
  if (l.length + r.length + 1 <= width) return [l + ' '.repeat(width - l.length - r.length) + r];
  return [...wrap(l, width), ...wrap(r, width, '  ')];
}

/** "HH:MM dd/mm" in the business's time zone (UTC when it names none or an unknown one). */
function clock(value: string, timeZone = 'UTC'): string {
  const date = new Date(value);
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      day: '2-digit',
      month: '2-digit',
      hourCycle: 'h23',
    });
  } catch {
    return clock(value, 'UTC');
  }
  const part = (type: string) => format.formatToParts(date).find((p) => p.type === type)?.value;
  const text = `${part('hour')}:${part('minute')} ${part('day')}/${part('month')}`;
  return timeZone === 'UTC' ? `${text} UTC` : text;
}

function whereTo(ticket: DocketTicket): string {
  if (ticket.fulfilment_type === 'dine_in') {
    return ticket.table ? `TABLE ${ticket.table}` : 'DINE IN';
  }
  return ticket.fulfilment_type === 'delivery' ? 'DELIVERY' : 'PICKUP';
}

function optionText(option: Record<string, unknown>): string {
  const group = option.group_title ?? option.group;
  const chosen = option.option_title ?? option.option;
  const parts = [group, chosen].filter((part) => typeof part === 'string' && part !== '');
  return parts.join(': ');
}

/**
 * The docket of a ticket as lines of at most `width` ASCII characters: the
 * header (`REPRINT` when it was printed before, the station, the order
 * reference, where it goes, placed and wanted times), each line with its
 * quantity, options, note and allergens, and the general note.
 */
export function docketLines(ticket: DocketTicket, width: number, reprint: boolean): string[] {
  const rule = '-'.repeat(width);
  const out: string[] = [];
  if (reprint) out.push(center('*** REPRINT ***', width));
  if (ticket.kind === 'void') out.push(center('*** VOID - DO NOT MAKE ***', width));
  out.push(center((ticket.station_title ?? ticket.station).toUpperCase(), width));
  out.push(...pair(`#${ticket.order_reference}`, whereTo(ticket), width));
  out.push(...pair('Placed', clock(ticket.created_at, ticket.time_zone), width));
  out.push(...pair('Wanted', ticket.requested_time ? clock(ticket.requested_time) : 'ASAP', width));
  out.push(rule);
  for (const line of ticket.lines) {
    out.push(...wrap(`${line.quantity} x ${line.title_name ?? 'Item'}`, width, '    '));
    for (const option of line.options) {
      const text = optionText(option);
      if (text) out.push(...wrap(`  + ${text}`, width, '    '));
    }
    if (line.item_note) out.push(...wrap(`  Note: ${line.item_note}`, width, '    '));
    if (line.allergens.length) {
      out.push(...wrap(`  ALLERGENS: ${line.allergens.join(', ')}`, width, '    '));
    }
  }
  out.push(rule);
  if (ticket.general_note) out.push(...wrap(`Note: ${ticket.general_note}`, width, '  '));
  return out.map((line) => line.slice(0, width).replace(/\s+$/, ''));
}

/** The docket as plain text, one `\n` after each line. */
export function docketText(ticket: DocketTicket, width: number, reprint: boolean): string {
  return docketLines(ticket, width, reprint)
    .map((line) => `${line}\n`)
    .join('');
}

const ESC = 0x1b;
const GS = 0x1d;

/**
 * The docket as ESC/POS bytes: initialise (ESC @), the header lines in
 * double height (ESC ! 0x10), the rest in normal size, a feed of 4 lines
 * (ESC d 4) and a partial cut (GS V 66 0).
 */
export function docketBytes(ticket: DocketTicket, width: number, reprint: boolean): Buffer {
  const lines = docketLines(ticket, width, reprint);
  const header = (reprint ? 1 : 0) + (ticket.kind === 'void' ? 1 : 0) + 1;
  return Buffer.concat([
    Buffer.from([ESC, 0x40, ESC, 0x21, 0x10]),
    Buffer.from(lines.slice(0, header).join('\n') + '\n', 'ascii'),
    Buffer.from([ESC, 0x21, 0x00]),
    Buffer.from(lines.slice(header).join('\n') + '\n', 'ascii'),
    Buffer.from([ESC, 0x64, 0x04, GS, 0x56, 0x42, 0x00]),
  ]);
}
