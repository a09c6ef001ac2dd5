/** One run for unit specs (beside the code) and e2e specs (test/), both on a real database. */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 120000,
  maxWorkers: 2,
  verbose: false,
};
