import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');

/** Every file under `dir`, as paths relative to the repository, sorted. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, dir));
  return found.sort();
}

/** What the service is built from: its sources (unit specs aside) and assets, and its migrations. */
function sources(): string[] {
  // Declarations and unit specs are not part of it.
  return [...filesUnder('src'), ...filesUnder('migrations')].filter(
    (file) => !file.endsWith('.spec.ts') && !file.endsWith('.d.ts'),
  );
}

/** The checkout's own prefix: its builds link to its `node_modules`, so no other checkout uses them. */
function checkoutPrefix(): string {
  return `svc-test-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}-`;
}

/** A digest of the sources, the migrations and the compiler settings: a build of other sources is never used. */
function sourcesKey(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of ['tsconfig.json', ...files]) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * The service compiled file by file, without type checks (as ts-node's
 * transpile-only mode compiles it), once for a set of sources: the tests
 * that start it as a process of its own (child-service.ts) run its
 * `dist/main.js`. It is laid out as `npm run build` lays out the
 * repository (`dist/`, `dist/migrations/`, beside `node_modules`), so the
 * service finds its migrations and workers as the production build does.
 * Compiling the sources at every such start (ts-node) cost about ten
 * seconds a start. A build belongs to its checkout: its `node_modules`
 * is a link to the checkout's, which a build found by its sources alone
 * could point at a checkout since deleted (a fresh clone of the same
 * commit elsewhere). Builds of this checkout's earlier sources, and builds
 * whose checkout is gone, are removed. Answers its directory.
 */
export function buildService(): string {
  const files = sources();
  const prefix = checkoutPrefix();
  const target = join(tmpdir(), `${prefix}${sourcesKey(files)}`);
  // existsSync follows the link: false when the modules it points at are gone.
  if (existsSync(join(target, 'dist', 'main.js')) && existsSync(join(target, 'node_modules'))) {
    return target;
  }
  rmSync(target, { recursive: true, force: true });
  const building = `${target}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  const compilerOptions: ts.CompilerOptions = {
    ...config.options,
    sourceMap: false,
    inlineSourceMap: true,
    isolatedModules: true,
  };
  for (const file of files) {
    // src/x → dist/x; migrations/x → dist/migrations/x (rootDir src, as tsconfig.build.json).
    const out = join(building, 'dist', file.startsWith('src/') ? file.slice('src/'.length) : file);
    mkdirSync(dirname(out), { recursive: true });
    if (!file.endsWith('.ts')) {
      cpSync(join(ROOT, file), out);
      continue;
    }
    const { outputText } = ts.transpileModule(readFileSync(join(ROOT, file), 'utf8'), {
      compilerOptions,
      fileName: join(ROOT, file),
    });
    writeFileSync(out.replace(/\.ts$/, '.js'), outputText);
  }
  symlinkSync(join(ROOT, 'node_modules'), join(building, 'node_modules'), 'dir');
  try {
    renameSync(building, target);
  } catch (error) {
    // A run beside this one got there first.
    if (!existsSync(join(target, 'dist', 'main.js'))) throw error;
    rmSync(building, { recursive: true, force: true });
  }
  for (const entry of readdirSync(tmpdir())) {
    const path = join(tmpdir(), entry);
    // A name with a dot is a build under way (`<target>.<pid>`).
    if (!entry.startsWith('svc-test-build-') || path === target || entry.includes('.')) continue;
    const stale = entry.startsWith(prefix) || !existsSync(join(path, 'node_modules'));
    if (stale) rmSync(path, { recursive: true, force: true });
  }
  return target;
}
