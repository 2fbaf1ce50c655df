// The one FATF lookup of the compliance families: where a country stands on the FATF lists (the
// black list, "high-risk jurisdictions subject to a call for action", and the grey list,
// "jurisdictions under increased monitoring"), read by entity ESG, AML, the ownership chain and
// vendor risk alike. The lists are passed in: data/fatf/fatf_lists.json, parsed by data/index.ts
// fatfLists(), is the one FATF dataset.

import type { FatfList } from './reference-data.js';

export type FatfStatus = 'NOT_LISTED' | 'INCREASED_MONITORING' | 'CALL_FOR_ACTION';

/** The FATF status of a jurisdiction on the given lists. */
export function fatfStatusOf(country: string, fatf: FatfList): FatfStatus {
  const code = country.toUpperCase();
  if (fatf.blacklist.some((entry) => entry.code === code)) return 'CALL_FOR_ACTION';
  if (fatf.greylist.some((entry) => entry.code === code)) return 'INCREASED_MONITORING';
  return 'NOT_LISTED';
}

export interface FatfStanding {
  country: string;
  list: 'CALL_FOR_ACTION' | 'INCREASED_MONITORING';
  /** FATF's call (countermeasures, enhanced due diligence ...); null on the increased-monitoring list. */
  call: string | null;
  plenary: string;
  statementDate: string;
}

/** Where a country (ISO 3166-1 alpha-2) stands on the FATF lists, with FATF's call; null when on neither. */
export function fatfStandingOf(country: string, list: FatfList): FatfStanding | null {
  const code = country.toUpperCase();
  const status = fatfStatusOf(code, list);
  if (status === 'NOT_LISTED') return null;
  const call = status === 'CALL_FOR_ACTION' ? (list.blacklist.find((entry) => entry.code === code)?.call ?? null) : null;
  return { country: code, list: status, call, plenary: list.plenary, statementDate: list.statementDate };
}

/** FATF calls on its members to apply countermeasures (its wording for DPRK and Iran), not only enhanced due diligence. */
export const callsForCountermeasures = (call: string | null): boolean => call !== null && call.toLowerCase().startsWith('countermeasures');

/** FATF asks its members to apply countermeasures (not only enhanced due diligence) to this jurisdiction. */
export const isCountermeasuresCall = (standing: FatfStanding | null): boolean => callsForCountermeasures(standing?.call ?? null);
