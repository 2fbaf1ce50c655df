import type { ColdStart, MemoryFigures } from './cold-start.js';
import type { ComplianceFigures } from './compliance.js';
import type { HostileFigures } from './graphql.js';
import type { IntelligenceFigures } from './intelligence.js';
import type { Comparison } from './load.js';
import type { AccessFigures } from './paid.js';
import type { PaymentsOutcome } from './payments.js';
import type { SplitQuery } from './split-layout.js';

/** What one whole run of npm run bench measured: the report (report.ts) and the targets (targets-summary.ts) read it. */
export interface BenchResults {
  startedAt: Date;
  pinning: string;
  /** The 1-minute load average when the run started (os.loadavg). */
  loadAtStart: number;
  durationSeconds: number;
  rest: Comparison[];
  graphql: Comparison[];
  hostile: HostileFigures;
  split: SplitQuery[];
  coldStart: ColdStart;
  memory: MemoryFigures;
  access: AccessFigures;
  compliance: ComplianceFigures;
  payments: PaymentsOutcome;
  intelligence: IntelligenceFigures;
}
