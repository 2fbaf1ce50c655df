import { formatUnits } from 'viem';
import type { Offer } from '../../../platform/access/admission.js';

const USDC_DECIMALS = 6;

/** "2.00", "0.075": a price in USDC with at least the two decimals of a dollar amount. */
export function usdcText(baseUnits: bigint): string {
  const [whole, fraction = ''] = formatUnits(baseUnits, USDC_DECIMALS).split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

interface ReportProduct {
  /** Token base units (6 decimals). */
  amount: bigint;
  description: string;
  whatYouGet: string[];
  /** The query string of an example call (agent.json), when the report takes one. */
  exampleQuery?: string;
}

/**
 * The reports on sale. The climate report's price is the spec's (2000000 base units, USD 2.00);
 * macro and ESG are ours (decision 0038), compliance and treasury too (decision 0066).
 */
export const REPORT_PRODUCTS = {
  climate: {
    amount: 2_000_000n,
    description: 'Climate intelligence report: physical risk, commodity stress and climate outlook',
    whatYouGet: [
      'Risk level (LOW to CRITICAL) with a summary and key findings',
      'Physical risk of the highest-risk production regions',
      'Commodity stress across the 11 tracked commodities (GREEN, YELLOW, RED)',
      'Climate outlook for the next three months from the seasonal calendar',
      'Recommendations, the oracle data used and its sources',
    ],
  },
  // Prices are "not shown" for the other reports (decision 0038): 1.00 USDC, half the climate report, as each reads one oracle's answers.
  macro: {
    amount: 1_000_000n,
    description: 'Macro report: stability score, macro regime and 90-day outlook from the stability oracle',
    whatYouGet: [
      'Risk level with a summary and key findings',
      'Stability score and its 24-hour average',
      'Macro regime: yield curve, breakeven inflation, Fed balance sheet, gold',
      '90-day outlook from the USD structural outlook and the recorded runs',
      'Recommendations, the oracle data used and its sources',
    ],
  },
  esg: {
    amount: 1_000_000n,
    exampleQuery: '?lei=2138001KPMR6PD83HC08',
    description: "ESG report: a counterparty's entity ESG (by LEI or wallet) beside the rail's E, S and G",
    whatYouGet: [
      "Risk level from the counterparty's composite ESG score",
      'Entity E, S, G, fee tier and coverage',
      "The rail's E, S, G and ESG fee",
      'Recommendations, the oracle data used and its sources',
    ],
  },
  // Decision 0066: 1.00 USDC as macro and ESG, each reading one subgraph's public answers.
  compliance: {
    amount: 1_000_000n,
    exampleQuery: '?lei=2138001KPMR6PD83HC08&name=Shell%20Catalysts%20%26%20Technologies',
    description: 'Compliance report of a counterparty (LEI and/or name): sanctions and AML screening, PEP check, country risk and Travel Rule status',
    whatYouGet: [
      'Risk level (LOW to CRITICAL) from the screening flags',
      'Sanctions screening of the name, its reported owners and the verdict',
      'PEP check with its matches and the FATF R.12 note',
      'Country risk of the registered jurisdiction against the FATF lists',
      'LEI registry record and FATF R.16 (Travel Rule) readiness on the rail',
      'Recommendations, the datasets screened (source, as-of, licence) and the oracle data used',
    ],
  },
  treasury: {
    amount: 1_000_000n,
    exampleQuery: '?period=2026-10',
    description: "Treasury report of a month: the rail's settlement volume, corridor performance and the settlement agent's automated decisions, in aggregate",
    whatYouGet: [
      'Risk level from the month’s settlement exceptions and held settlements',
      'Settlement volume: payments by status, USD settled, mean time to settle',
      'Corridor performance: payments, settlement rate and volume per corridor',
      "Audit of the settlement agent's automated decisions and the rules that held them",
      'Aggregates only: no institution’s payments; figures too small to show are withheld',
    ],
  },
} as const satisfies Record<string, ReportProduct>;

export type ReportType = keyof typeof REPORT_PRODUCTS;

/** What the x402 layer sells for a report: its price, and the 402's reportPreview {type, whatYouGet, fee}. */
export function reportOffer(type: ReportType): Offer {
  const product: ReportProduct = REPORT_PRODUCTS[type];
  return {
    price: { amount: product.amount, description: product.description },
    preview: (requirements) => ({
      reportPreview: { type, whatYouGet: product.whatYouGet, fee: { amountUsdc: usdcText(product.amount), asset: requirements.asset } },
    }),
  };
}
