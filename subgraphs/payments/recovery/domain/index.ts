// A payment left PENDING by a stopped process (decision 0039): when it is recovered, and how it ends.
export type { RecoveryDelays } from './rules.js';
export { recoverableFrom, recoveredStep } from './rules.js';
