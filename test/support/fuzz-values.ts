import fc from 'fast-check';

/*
 * The odd values the fuzz suite (test/support/fuzz-suite.ts) breaks requests with:
 * strings PostgreSQL cannot store, injection and path fragments, huge and
 * deeply nested values.
 */

/** A marker replaced in the body text by nesting of that depth (built as text, not as a value). */
export const DEEP = '\u0001deep:';

const ODD_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfff',
  '\ud83c\udf55',
  '\u202eevil',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '$.extra_data[*]',
  'extra_data.a->>0',
  'extra_data.__proto__',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  '%00',
  '%ED%A0%80',
  '{{7*7}}',
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  'null',
  '[]',
  '{"a":1}',
  'Enable',
  'ENABLED',
  'svc_business',
  '00000000-0000-0000-0000-000000000000',
  'ünïcödé ✓',
];

/** Text PostgreSQL cannot store, hidden in ordinary text. */
export const unstorable = fc
  .tuple(
    fc.stringMatching(/^[a-z@.]{0,8}$/),
    fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'),
    fc.stringMatching(/^[a-z@.]{0,8}$/),
  )
  .map(([head, bad, tail]) => `${head}${bad}${tail}`);

export const oddString = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 4, arbitrary: unstorable },
  { weight: 1, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }).map((n) => 'x'.repeat(n * 70_000)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2000 }).map((n) => 'y'.repeat(n)) },
);

export const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  oddString,
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.constant([[]]),
  fc.constant([null]),
  fc.constant({ '': null }),
  fc.boolean(),
  fc.constantFrom(0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 1e-300),
  oddString,
  fc.array(oddString, { maxLength: 3 }),
  fc.dictionary(oddString, oddString, { maxKeys: 3 }),
  fc.constantFrom(20, 31, 32, 33, 40, 5000).map((depth) => `${DEEP}${depth}`),
);
