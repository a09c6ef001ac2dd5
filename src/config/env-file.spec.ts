import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnvFile } from './env-file';

describe('the .env file', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'env-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fills in unset variables and never replaces one the environment sets', () => {
    const file = join(dir, '.env');
    writeFileSync(
      file,
      '# a comment\nPORT=4100\nAPI_NAMESPACE=fromfile\nMAIL_FROM="Shop <shop@example.test>"\nEMPTY=\n',
    );
    const env: NodeJS.ProcessEnv = { API_NAMESPACE: 'fromenv', EMPTY: '' };
    const loaded = loadEnvFile(file, env);
    expect(loaded.sort()).toEqual(['MAIL_FROM', 'PORT']);
    expect(env).toEqual({
      PORT: '4100',
      API_NAMESPACE: 'fromenv',
      MAIL_FROM: 'Shop <shop@example.test>',
      EMPTY: '',
    });
  });

  it('is optional: no file changes nothing', () => {
    const env: NodeJS.ProcessEnv = { PORT: '3000' };
    expect(loadEnvFile(join(dir, '.env'), env)).toEqual([]);
    expect(env).toEqual({ PORT: '3000' });
  });

  it('is read from the working directory by the entry points before anything else', () => {
    writeFileSync(join(dir, '.env'), 'JWT_EXPIRES_IN=15m\nAPI_NAMESPACE=fromfile\n');
    const entry = join(__dirname, 'load-env-file.ts');
    const script =
      `require(${JSON.stringify(require.resolve('@local/ts-node'))}).register({ transpileOnly: true, compilerOptions: { module: 'commonjs' } });` +
      `require(${JSON.stringify(entry)});` +
      `process.stdout.write(JSON.stringify([process.env.JWT_EXPIRES_IN, process.env.API_NAMESPACE]));`;
    const env: NodeJS.ProcessEnv = { ...process.env, API_NAMESPACE: 'fromenv' };
    delete env.JWT_EXPIRES_IN;
    const out = execFileSync(process.execPath, ['-e', script], { cwd: dir, env, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(['15m', 'fromenv']);
  });
});
