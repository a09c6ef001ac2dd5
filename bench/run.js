// `npm run bench`: the harness is TypeScript (bench/harness.ts), run without a build step.
require('@local/ts-node').register({
  transpileOnly: true,
  project: require('path').join(__dirname, '..', 'tsconfig.json'),
});
require('./harness').main();
