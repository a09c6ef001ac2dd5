/**
 * One run for the three tiers: unit specs beside the code (pure rules), medium
 * specs in test/medium (a feature module on a real database, no HTTP) and e2e
 * specs in test/ (HTTP through the real app), the last two on a real database.
 */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
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
  maxWorkers: 2,
  verbose: false,
};
