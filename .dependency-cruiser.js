/**
 * Module front doors. A module is a folder of src/ with a *.module.ts that is
 * not part of the kernel; other code may import it only through its
 * index.ts. The kernel (config, database, common, auth, mail, outbox,
 * rate-limit, metrics, http, health, openapi) is open to every module. The
 * composition root (src/*.ts) assembles the modules and may reach any of them.
 */
const MODULES = [
  'account',
  'discount',
  'entity',
  'file',
  'notification',
  'order',
  'payment',
  'team',
  'webhook',
];
const MODULE = `(${MODULES.join('|')})`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-front-door',
      comment:
        "Import another module only through its index.ts: its ports, read models and event types. Anything else of it is that module's own business.",
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: `^src/${MODULE}/(?!index\\.ts$)`, pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
