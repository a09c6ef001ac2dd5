import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { successBody } from '../http/envelope';
import { MenuLanguages } from './domain/menu-labels';

const deflateRawAsync = promisify(deflateRaw);

/**
 * What the answer-time fields of a storefront are computed from, kept beside
 * the document (the business's opening hours and its switch for taking
 * orders), so that an answer never needs the records themselves.
 */
export interface StorefrontAnswerInputs {
  opening_hours?: unknown;
  accepting_orders?: unknown;
  /** The kitchen's switch (busy, paused) as stored on the business. */
  availability?: unknown;
  /** The menu's prep time, for `estimated_wait_minutes`. */
  prep_time_minutes?: unknown;
  /** The menu's `languages`, which the storefront's language is resolved against. */
  languages?: unknown;
  /** When (epoch ms) the day of the items' daily stock ends; absent without daily stock. */
  stock_until?: number;
}

/**
 * A finished storefront, as stored per storefront URL: the enveloped JSON
 * answer without the fields computed at answer time, cut where those fields
 * go in (before the `}` that closes its `data` object), with what it takes to
 * send it gzipped without compressing the whole again.
 *
 * `prefix` is the envelope's bytes up to that `}`, `suffix` the rest.
 * `gzipPrefix` is the prefix as raw deflate blocks that are not final and end
 * on a byte boundary, so that any tail compressed on its own can follow them;
 * `prefixCrc` is the CRC-32 of the prefix. A read may fetch only one of
 * `prefix` and `gzipPrefix`: the one the client will be sent.
 */
export interface StorefrontDocument {
  /** The whole stored envelope, prefix and suffix, when it was read whole. */
  body?: Buffer;
  prefix?: Buffer;
  suffix: Buffer;
  gzipPrefix?: Buffer;
  prefixCrc: number;
  prefixLength: number;
  etag: string;
  answerInputs: StorefrontAnswerInputs;
}

/** A storefront answer ready to send: the JSON bytes, their gzip form, and their ETag. */
export interface StorefrontAnswer {
  /** Absent when only the gzip form was read. */
  body?: Buffer;
  /** Absent when only the plain form was read. */
  gzipped?: Buffer;
  etag: string;
  /** Until when (epoch ms) the answer-time fields of this answer hold; null: until a write. */
  validUntilMs: number | null;
  /** The menu's languages, when it has any. */
  languages?: MenuLanguages;
  /** For an answer in a language or without some allergens: the ETag of the plain answer it was made of. */
  viewOf?: string;
  /** The language the answer is in, when the menu has languages. */
  language?: string;
}

/** The bytes an answer holds in the forms it has now. */
export function answerBytes(answer: StorefrontAnswer): number {
  return (answer.gzipped?.length ?? 0) + (answer.body?.length ?? 0);
}

/** The fields added to `data` at answer time, and until when they hold. */
export interface AnswerTimeFields {
  fields: Record<string, unknown>;
  validUntilMs: number | null;
}

/** The weak ETag Express gives a JSON body by default, so conditional GETs behave as elsewhere. */
export function weakEtag(body: Buffer | string): string {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const hash = createHash('sha1').update(body).digest('base64').substring(0, 27);
  return `W/"${length.toString(16)}-${hash}"`;
}

/** The enveloped JSON of `data`, and where its `data` object closes. */
export function envelopeOf(data: object, message: string): { body: Buffer; dataEnd: number } {
  const marker = 0;
  const shell = JSON.stringify(successBody(marker, message));
  const at = shell.lastIndexOf(`"data":${marker}`) + '"data":'.length;
  const json = JSON.stringify(data);
  if (!json.endsWith('}')) throw new Error('A storefront document must be a JSON object');
  const head = shell.slice(0, at) + json.slice(0, -1);
  const text = head + json.slice(-1) + shell.slice(at + String(marker).length);
  return { body: Buffer.from(text), dataEnd: Buffer.byteLength(head) };
}

/** Makes the stored form of a storefront (compression runs on the thread pool). */
export async function makeDocument(
  data: object,
  message: string,
  answerInputs: StorefrontAnswerInputs,
): Promise<StorefrontDocument & { prefix: Buffer; gzipPrefix: Buffer }> {
  const { body, dataEnd } = envelopeOf(data, message);
  const prefix = body.subarray(0, dataEnd);
  const gzipPrefix = await deflateRawAsync(prefix, { finishFlush: constants.Z_FULL_FLUSH });
  return {
    body,
    prefix,
    suffix: body.subarray(dataEnd),
    gzipPrefix,
    prefixCrc: crc32(prefix),
    prefixLength: prefix.length,
    etag: weakEtag(body),
    answerInputs,
  };
}

/**
 * Compressed tails by their text: an answer's tail is its answer-time fields
 * and the envelope's last bytes, so the same few tails recur, and a zlib
 * stream costs far more to set up than these bytes to compress.
 */
const compressedTails = new Map<string, Buffer>();
const MAX_COMPRESSED_TAILS = 1000;

function compressedTail(tail: Buffer): Buffer {
  const text = tail.toString('latin1');
  let compressed = compressedTails.get(text);
  if (!compressed) {
    compressed = deflateRawSync(tail);
    if (compressedTails.size >= MAX_COMPRESSED_TAILS) compressedTails.clear();
    compressedTails.set(text, compressed);
  }
  return compressed;
}

/** The ETag of the answer of a stored document whose ETag is `storedEtag`, with these answer-time fields. */
export function answerEtag(storedEtag: string, time: AnswerTimeFields): string {
  if (Object.keys(time.fields).length === 0) return storedEtag;
  return weakEtag(`${storedEtag}${JSON.stringify(time.fields)}`);
}

/** gzip member header: deflate, no name, no time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * The answer of a stored document with these answer-time fields added to
 * its `data`, in the forms the document was read with: the plain bytes with
 * the fields spliced in before `data` closes, and the gzip form as the stored
 * compressed prefix followed by the tail compressed here (a few dozen bytes),
 * so that no answer compresses the whole document. With no fields the bytes
 * and the ETag are the stored ones.
 */
export function answerOf(document: StorefrontDocument, time: AnswerTimeFields): StorefrontAnswer {
  const fieldsJson = Object.keys(time.fields).length ? JSON.stringify(time.fields) : '';
  const tail = fieldsJson
    ? Buffer.concat([Buffer.from(`,${fieldsJson.slice(1, -1)}`), document.suffix])
    : document.suffix;
  const answer: StorefrontAnswer = {
    etag: answerEtag(document.etag, time),
    validUntilMs: time.validUntilMs,
  };
  if (!fieldsJson && document.body) answer.body = document.body;
  else if (document.prefix) answer.body = Buffer.concat([document.prefix, tail]);
  if (document.gzipPrefix) {
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(tail, document.prefixCrc) >>> 0, 0);
    trailer.writeUInt32LE((document.prefixLength + tail.length) % 2 ** 32, 4);
    answer.gzipped = Buffer.concat([
      GZIP_HEADER,
      document.gzipPrefix,
      compressedTail(tail),
      trailer,
    ]);
  }
  return answer;
}
