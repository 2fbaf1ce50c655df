/**
 * What a quote reports of the oracles' latest runs (decision 0036): the stability and ESG oracles
 * produce them, the quotes and the widgets read them.
 */
export interface OracleReadings {
  stability: { score: number; status: string; pegDeviationBps: number | null; pegAlert: boolean; confidence: number; runAt: string } | null;
  esg: { environmental: number; social: number; governance: number; average: number; runAt: string } | null;
}

export const NO_ORACLE_READINGS: OracleReadings = { stability: null, esg: null };
