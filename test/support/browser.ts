import { existsSync } from 'node:fs';

/**
 * Tests in a real headless Chromium: Debian's (`apt-get install -y
 * chromium`), or another binary named by CHROMIUM_PATH. Without one a
 * browser test is skipped and says why, except in CI (CI=true, which .ci/run
 * sets and where it installs the browser): there a missing browser fails the
 * run instead of hiding the check.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for this machine's closed network: no background connections that would be refused. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `describe` for a browser test: skipped without a browser, failing in CI without one. */
export function describeInBrowser(title: string, body: () => void): void {
  const installed = existsSync(CHROMIUM_PATH);
  const skipReason = `skipped: no browser at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (!installed && process.env.CI === 'true') {
    describe(title, () => {
      it('has a browser to run in CI', () => {
        throw new Error(`CI=true but ${skipReason}: CI must run the browser test`);
      });
    });
  }
  (installed ? describe : describe.skip)(installed ? title : `${title} (${skipReason})`, body);
}
