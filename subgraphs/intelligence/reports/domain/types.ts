/** The report envelope of Document 1 §2 ("Report resources"), the same for every report type. */

export const RISK_LEVELS = ['LOW', 'MODERATE', 'ELEVATED', 'HIGH', 'CRITICAL'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export type DataQuality = 'LIVE' | 'PARTIAL' | 'ESTIMATED';

export interface ReportSynthesis {
  summary: string;
  keyFindings: string[];
  riskLevel: RiskLevel;
  /** Section title to text. */
  narrative: Record<string, string>;
  recommendations: string[];
  dataQuality: DataQuality;
  /** Which synthesiser wrote the summary: the rule-based one says so (decision 0013). */
  model: string;
}

export interface Report<Data extends Record<string, unknown> = Record<string, unknown>> {
  reportType: string;
  /** YYYY-MM of generatedAt. */
  period: string;
  generatedAt: string;
  synthesis: ReportSynthesis;
  /** The oracle data the synthesis was built from. */
  data: Data;
  sources: string[];
}

/** A source of the figures, as the forecast and every shipped snapshot carry it. */
export interface SourceReference {
  source: string;
  url: string;
  asOf: string;
}
