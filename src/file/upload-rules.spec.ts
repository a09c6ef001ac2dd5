import {
  buildObjectKey,
  clampExpiresIn,
  DIRECTORY_PATTERN,
  isKeyOwnedBy,
  isObjectKey,
  keyUnderBase,
  resolveDirectory,
  sanitizeFileName,
  uploadTypeOfKey,
} from './upload-rules';

const USER = '0b8f4c2e-5d0a-4c52-9a57-2f7d1d1c9e01';
const OTHER = '7c1d9e2a-3b4f-4a6d-8e9f-0a1b2c3d4e5f';

describe('sanitizeFileName', () => {
  it.each([
    ['logo.png', 'image/png', 'logo.png'],
    ['Logo.PNG', 'image/png', 'Logo.png'],
    ['photo.jpg', 'image/jpeg', 'photo.jpg'],
    ['photo.JPEG', 'image/jpeg', 'photo.jpeg'],
    ['photo', 'image/jpeg', 'photo.jpg'],
    ['photo.png', 'image/jpeg', 'photo.png.jpg'],
    ['evil.html', 'image/png', 'evil.html.png'],
    ['evil.svg', 'image/webp', 'evil.svg.webp'],
    ['../../etc/passwd', 'image/png', 'passwd.png'],
    ['..\\..\\windows\\win.ini', 'image/gif', 'win.ini.gif'],
    ['.htaccess', 'image/png', 'htaccess.png'],
    ['...', 'image/png', 'file.png'],
    ['', 'image/png', 'file.png'],
    ['日本語.webp', 'image/webp', 'file.webp'],
    ['Crème brûlée (final) v2.jpg', 'image/jpeg', 'Creme-brulee-final-v2.jpg'],
    ['a  b\t\nc.gif', 'image/gif', 'a-b-c.gif'],
    ['name\u0000.png', 'image/png', 'name.png'],
    ['-dash-.png', 'image/png', 'dash.png'],
    ['my_file-1.2.png', 'image/png', 'my_file-1.2.png'],
  ] as const)('%j as %s becomes %j', (input, type, expected) => {
    expect(sanitizeFileName(input, type)).toBe(expected);
  });

  it('keeps names to 100 characters with the extension', () => {
    const name = sanitizeFileName(`${'a'.repeat(300)}.webp`, 'image/webp');
    expect(name).toHaveLength(100);
    expect(name.endsWith('.webp')).toBe(true);
  });

  it('only ever yields safe characters', () => {
    for (let code = 0; code < 0x3000; code += 7) {
      const name = sanitizeFileName(`x${String.fromCharCode(code)}y.png`, 'image/png');
      expect(name).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]*\.png$/);
    }
  });
});

describe('directory rules', () => {
  it.each([
    'business',
    'business/logo',
    `business/logo/${USER}`,
    'a.b/c_d/e-f',
    'a/',
    'a/b/c/d/e/f/g/h',
  ])('accepts %j', (directory) => expect(DIRECTORY_PATTERN.test(directory)).toBe(true));

  it.each([
    '/business',
    '..',
    '../x',
    'a/../b',
    'a/..',
    '.',
    './a',
    'a/.hidden',
    'a//b',
    'a\\b',
    'a b',
    '%2e%2e',
    'a/b/c/d/e/f/g/h/i',
    '',
    `x/${'y'.repeat(129)}`,
  ])('refuses %j', (directory) => expect(DIRECTORY_PATTERN.test(directory)).toBe(false));

  it('drops the caller’s own uuid, in any case, and keeps the rest in order', () => {
    expect(resolveDirectory(`business/logo/${USER}`, USER)).toEqual({
      ok: true,
      segments: ['business', 'logo'],
    });
    expect(resolveDirectory(`${USER.toUpperCase()}/menu`, USER)).toEqual({
      ok: true,
      segments: ['menu'],
    });
    expect(resolveDirectory(undefined, USER)).toEqual({ ok: true, segments: [] });
    expect(resolveDirectory('a/', USER)).toEqual({ ok: true, segments: ['a'] });
  });

  it('refuses another user’s uuid anywhere in it', () => {
    expect(resolveDirectory(`business/logo/${OTHER}`, USER)).toEqual({
      ok: false,
      reason: 'other-user',
      uuid: OTHER,
    });
    expect(resolveDirectory(`${USER}/${OTHER}`, USER).ok).toBe(false);
  });
});

describe('object keys', () => {
  it('live under the user, carry a random part and the safe name', () => {
    const key = buildObjectKey(USER.toUpperCase(), ['business', 'logo'], 'logo.png');
    expect(key).toMatch(new RegExp(`^${USER}/business/logo/[0-9a-f]{24}-logo\\.png$`));
    expect(isObjectKey(key)).toBe(true);
    expect(isKeyOwnedBy(key, USER)).toBe(true);
    expect(isKeyOwnedBy(key, OTHER)).toBe(false);
  });

  it('never repeat', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => buildObjectKey(USER, [], 'a.png')));
    expect(keys.size).toBe(1000);
  });

  it.each([`${USER}/x.png`, `${USER}/a/b/c/d/e/f/g/h/x.jpeg`])('accepts %j as a key', (key) =>
    expect(isObjectKey(key)).toBe(true),
  );

  it.each([
    'x.png',
    `not-a-uuid/x.png`,
    `${USER}`,
    `${USER}/`,
    `${USER}/x.html`,
    `${USER}/x.svg`,
    `${USER}/x`,
    `${USER}/../x.png`,
    `${USER}/./x.png`,
    `${USER}/.x.png`,
    `${USER}//x.png`,
    `${USER}/a\\b.png`,
    `${USER}/a b.png`,
    `/${USER}/x.png`,
    `${USER}/a/b/c/d/e/f/g/h/i/x.png`,
  ])('refuses %j as a key', (key) => expect(isObjectKey(key)).toBe(false));

  it('maps extensions to the allowed types only', () => {
    expect(uploadTypeOfKey('u/a.png')).toBe('image/png');
    expect(uploadTypeOfKey('u/a.JPG')).toBe('image/jpeg');
    expect(uploadTypeOfKey('u/a.jpeg')).toBe('image/jpeg');
    expect(uploadTypeOfKey('u/a.webp')).toBe('image/webp');
    expect(uploadTypeOfKey('u/a.gif')).toBe('image/gif');
    expect(uploadTypeOfKey('u/a.svg')).toBeUndefined();
    expect(uploadTypeOfKey('u.png/a')).toBeUndefined();
  });
});

describe('clampExpiresIn', () => {
  it.each([
    [undefined, 900],
    [-5, 60],
    [0, 60],
    [59, 60],
    [60, 60],
    [1800, 1800],
    [3600, 3600],
    [3601, 3600],
    [10 ** 12, 3600],
  ])('%p becomes %p', (input, expected) => expect(clampExpiresIn(input)).toBe(expected));
});

describe('keyUnderBase', () => {
  const base = 'https://cdn.example.com/bucket/';

  it('reads the key of a URL below the base, without query or fragment', () => {
    expect(keyUnderBase(`${base}${USER}/a.png`, base)).toBe(`${USER}/a.png`);
    expect(keyUnderBase(`${base}${USER}/a.png?x=1#y`, base)).toBe(`${USER}/a.png`);
    expect(keyUnderBase(`${base}${USER}/a%20b.png`, base)).toBe(`${USER}/a b.png`);
  });

  it('leaves other URLs alone', () => {
    expect(keyUnderBase('https://cdn.example.com/other/a.png', base)).toBeUndefined();
    expect(keyUnderBase('http://cdn.example.com/bucket/a.png', base)).toBeUndefined();
    expect(keyUnderBase('https://cdn.example.com:444/bucket/a.png', base)).toBeUndefined();
    expect(keyUnderBase('https://evil.example/bucket/a.png', base)).toBeUndefined();
    expect(keyUnderBase('not a url', base)).toBeUndefined();
    expect(keyUnderBase('https://cdn.example.com/bucket', base)).toBeUndefined();
  });

  it('marks a malformed escape below the base as no key', () => {
    expect(keyUnderBase(`${base}%E0%A4%A`, base)).toBe('');
  });
});
