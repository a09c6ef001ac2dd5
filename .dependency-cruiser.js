/**
 * Module front doors. A module is a folder of src/ with a *.module.ts that is
 * not part of the kernel; other code may import it only through its
 * index.ts. The kernel (config, database, common, auth, mail, outbox,
 * rate-limit, metrics, http, health, openapi) is open to every module and
 * imports none of them. The composition root (src/*.ts) assembles the modules
 * and may reach any of them. There is no list of tolerated exceptions: any
 * such import fails lint.
 */
const MODULES = [
  'account',
  'discount',
  'entity',
  'file',
  'notification',
  'order',
  'payment',
  'report',
  'team',
  'webhook',
];
const MODULE = `(${MODULES.join('|')})`;
const KERNEL = [
  'auth',
  'common',
  'config',
  'database',
  'health',
  'http',
  'mail',
  'metrics',
  'openapi',
  'outbox',
  'rate-limit',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Modules and files never depend on each other in a circle: when B must react to A, A publishes an event (src/database/event-bus.ts) and B handles it.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'module-front-door',
      comment:
        "Import another module only through its index.ts: its ports, read models and event types. Anything else of it is that module's own business.",
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: `^src/${MODULE}/(?!index\\.ts$)`, pathNot: '^src/$1/' },
    },
    {
      name: 'kernel-imports-no-module',
      comment:
        'The kernel serves every module and imports none: what it needs of one is a port the module provides (UserTokenVersions) or something the composition root hands in (the entities).',
      severity: 'error',
      from: { path: `^src/(${KERNEL.join('|')})/` },
      to: { path: `^src/${MODULE}/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
