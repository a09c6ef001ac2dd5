import { describeFuzzing } from './support/fuzz-suite';

/** Every operation of the published OpenAPI document fuzzed, half of them here (see fuzz-suite.ts). */
describeFuzzing(0, 2);
