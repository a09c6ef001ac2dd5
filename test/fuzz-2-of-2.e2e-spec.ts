import { describeFuzzing } from './support/fuzz-suite';

/** Every operation of the published OpenAPI document fuzzed, half of them here (see fuzz-suite.ts). */
describeFuzzing(1, 2);
