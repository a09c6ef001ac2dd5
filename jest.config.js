/**
 * Workers: on the PostgreSQL server a test file spends part of its time
 * waiting for the server's own processes, so a third worker keeps two cores
 * busy; on the embedded database each file's database runs in a thread of its
 * worker, and two workers already fill them.
 */
const onServer = Boolean(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL);

/**
 * One run for the three tiers: unit specs beside the code (pure rules), medium
 * specs in test/medium (a feature module on a real database, no HTTP) and e2e
 * specs in test/ (HTTP through the real app), the last two on a real database.
 */
module.exports = {
  rootDir: '.',
  // Node's, plus PGlite's WebAssembly compiled once per worker (see the file).
  testEnvironment: '<rootDir>/test/support/test-environment.ts',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/test/medium/**/*.medium-spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
  ],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 120000,
  maxWorkers: onServer ? 3 : 2,
  verbose: false,
};
