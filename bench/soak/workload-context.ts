import type { Cluster } from '../../gateway/cluster/cluster.js';
import { type Answer, problemOf } from './http.js';
import type { Random } from './random.js';
import type { KeyCount, PaymentEntry, RequestKind, RequestRecord, X402Entry } from './records.js';
import type { SoakAccounts } from './setup.js';

/** Everything the clients saw, appended to as the load runs. */
export interface Observations {
  records: RequestRecord[];
  payments: PaymentEntry[];
  x402: X402Entry[];
  keyCounts: KeyCount[];
}

export interface Workload {
  cluster: Cluster;
  accounts: SoakAccounts;
  callbackUrl: string;
  random: Random;
  seed: number;
  observations: Observations;
}

/** One request of the mix: the kind it starts with and what it does (a payment makes several requests). */
export interface MixEntry {
  name: string;
  weight: number;
  run(workload: Workload): Promise<void>;
}

/** Records an answer under `kind`; `expected` says whether it is the answer the kind needs. */
export function record(workload: Workload, kind: RequestKind, answer: Answer, expected: boolean): void {
  workload.observations.records.push({
    kind,
    startedAt: answer.startedAt,
    endedAt: answer.endedAt,
    outcome: answer.outcome,
    expected,
    ...(expected ? {} : { problem: problemOf(answer) }),
  });
}
