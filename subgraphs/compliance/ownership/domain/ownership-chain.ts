// The ownership chain of a legal entity (Document 2 §2 "Ownership chain result", §4 POST
// /compliance/ubo-chain, §8 "Ownership depth 3 levels; sanctions match score 0.70 or above"): the
// entity, its accounting-consolidation parents from GLEIF Level 2, each node screened against the
// SDN list, the jurisdictions read against the FATF lists, and a result with its reasons.
// Pure: the LEI records, the sanctions index and the FATF list are passed in (decision 0018).

import {
  callsForCountermeasures,
  type FatfList,
  fatfStandingOf,
  type LeiRecord,
  SANCTIONS_BLOCK_SCORE,
  SANCTIONS_MATCH_THRESHOLD,
  type SanctionsIndex,
  type SdnNameKind,
  type SdnType,
} from '../../domain/index.js';

/** Document 2 §8: the chain goes at most 3 levels above the subject. */
export const MAX_OWNERSHIP_LEVELS = 3;
/**
 * Ownership nodes are legal entities: they are screened against SDN entities and individuals (a
 * company may carry a listed person's name), not against vessels and aircraft, which own nothing.
 */
export const OWNERSHIP_SCREENED_TYPES: readonly SdnType[] = ['entity', 'individual'];
/** Matches kept per screened name (the best first). */
export const MATCHES_PER_NAME = 10;
/**
 * GLEIF reporting-exception reasons that close the chain: no parent entity consolidates this one
 * (natural persons control it, the parent does not consolidate, or there is no known parent).
 * Any other reason (NON_PUBLIC: the parent is withheld) leaves the parent unresolved.
 */
export const CLOSING_EXCEPTIONS: ReadonlySet<string> = new Set(['NATURAL_PERSONS', 'NON_CONSOLIDATING', 'NO_KNOWN_PERSON']);

export type OwnershipRole = 'SUBJECT' | 'DIRECT_PARENT' | 'INTERMEDIATE_PARENT' | 'ULTIMATE_PARENT';
export type OwnershipResult = 'CLEAR' | 'REVIEW_REQUIRED' | 'BLOCKED';
export type SanctionsStatus = 'NO_MATCH' | 'POTENTIAL_MATCH' | 'MATCH';

/** Why a result is what it is; BLOCKED and REVIEW_REQUIRED each carry at least one. */
export type OwnershipReason =
  'SANCTIONS_MATCH' | 'SANCTIONS_POTENTIAL_MATCH' | 'FATF_COUNTERMEASURES_JURISDICTION' | 'FATF_CALL_FOR_ACTION_JURISDICTION' | 'FATF_INCREASED_MONITORING_JURISDICTION' | 'PARENT_UNRESOLVED';

export interface OwnershipSanctionsMatch {
  /** OFAC ent_num. */
  uid: number;
  /** OFAC SDN_Name. */
  name: string;
  /** The SDN name or alias that matched. */
  matchedName: string;
  matchedAs: SdnNameKind;
  type: SdnType;
  programs: string[];
  /** The node's name that was screened (its legal name or one of its other names). */
  screenedName: string;
  /** nameSimilarity in [0.70, 1]. */
  score: number;
}

export interface OwnershipNode {
  lei: string;
  name: string;
  role: OwnershipRole;
  /** Steps up the direct-parent line from the subject (0); null for an ultimate parent not reached that way in the snapshot. */
  level: number | null;
  /** GLEIF legal jurisdiction (e.g. US-DE), else the legal address country. */
  jurisdiction: string | null;
  leiStatus: string;
  sanctions: { hit: boolean; bestScore: number | null; matches: OwnershipSanctionsMatch[] };
}

export type ParentRelation = 'DIRECT' | 'ULTIMATE';
/**
 * How a parent of a chain node stands in the snapshot:
 * RESOLVED (its record is here), REPORTING_EXCEPTION (GLEIF exception, `exceptionReason` when known),
 * NOT_IN_SNAPSHOT (a parent LEI or a REPORTED link whose record is not here), NOT_REPORTED (the
 * snapshot's source carried no Level 2 data for this entity).
 */
export type ParentReportingStatus = 'RESOLVED' | 'REPORTING_EXCEPTION' | 'NOT_IN_SNAPSHOT' | 'NOT_REPORTED';

export interface ParentReporting {
  childLei: string;
  relation: ParentRelation;
  status: ParentReportingStatus;
  parentLei: string | null;
  exceptionReason: string | null;
  /** False when the status leaves a parent unknown (decision 0018). */
  resolved: boolean;
}

export interface JurisdictionRisk {
  jurisdiction: string;
  /** ISO 3166-1 alpha-2 read against the FATF lists. */
  country: string;
  /** The FATF lists' own names: high-risk jurisdictions subject to a call for action (black), under increased monitoring (grey). */
  fatfStatus: 'CALL_FOR_ACTION' | 'INCREASED_MONITORING' | 'NOT_LISTED';
  /** FATF's call for a black-listed jurisdiction (countermeasures, enhanced due diligence ...). */
  fatfCall: string | null;
  leis: string[];
}

export interface FatfAttestation {
  /** Every parent level is resolved in the snapshot or closed by a GLEIF exception saying there is no parent entity. */
  beneficialOwnersIdentified: boolean;
  /** The highest level above the subject in the chain; an ultimate parent beyond the direct line counts one above it. */
  ownershipLevelsTraversed: number;
  nodesScreened: number;
  sanctionsStatus: SanctionsStatus;
  parentReporting: ParentReporting[];
  jurisdictionRisk: JurisdictionRisk[];
  fatfList: { plenary: string; statementDate: string };
  note: string;
}

export interface OwnershipChain {
  lei: string;
  deep: boolean;
  result: OwnershipResult;
  reasons: OwnershipReason[];
  chain: OwnershipNode[];
  sanctionsMatches: (OwnershipSanctionsMatch & { lei: string; role: OwnershipRole })[];
  fatfAttestation: FatfAttestation;
}

export interface OwnershipChainInput {
  lei: string;
  /** Includes the intermediate parents between the direct and the ultimate parent. */
  deep: boolean;
  findRecord: (lei: string) => LeiRecord | undefined;
  sanctions: SanctionsIndex;
  fatf: FatfList;
}

const ATTESTATION_NOTE =
  'Parents are GLEIF Level 2 accounting-consolidation parents of the LEI snapshot; natural-person beneficial owners are not in GLEIF and must be ' +
  'collected from the customer where FATF R.10 and R.24 require. Each node was screened by name and other names against the OFAC SDN list ' +
  `(matches at ${SANCTIONS_MATCH_THRESHOLD.toFixed(2)} or above; ${SANCTIONS_BLOCK_SCORE.toFixed(2)} or above blocks).`;

/** The country a GLEIF jurisdiction names: `US-DE` is US. */
export const countryOfJurisdiction = (jurisdiction: string): string => jurisdiction.slice(0, 2).toUpperCase();

function fatfListing(country: string, fatf: FatfList): Pick<JurisdictionRisk, 'fatfStatus' | 'fatfCall'> {
  const standing = fatfStandingOf(country, fatf);
  return { fatfStatus: standing?.list ?? 'NOT_LISTED', fatfCall: standing?.call ?? null };
}

/** Screens a record's legal name and other names; one match per SDN entry, its best score, best first. */
function screenRecord(record: LeiRecord, sanctions: SanctionsIndex): OwnershipNode['sanctions'] {
  const names = [...new Set([record.legalName, ...record.otherNames.map((other) => other.name)])];
  const best = new Map<number, OwnershipSanctionsMatch>();
  for (const screenedName of names) {
    for (const match of sanctions.screenName(screenedName, { types: OWNERSHIP_SCREENED_TYPES, limit: MATCHES_PER_NAME }).matches) {
      const kept = best.get(match.entry.entNum);
      if (kept && kept.score >= match.score) continue;
      best.set(match.entry.entNum, {
        uid: match.entry.entNum,
        name: match.entry.name,
        matchedName: match.matchedName,
        matchedAs: match.matchedAs,
        type: match.entry.type,
        programs: [...match.entry.programs],
        screenedName,
        score: match.score,
      });
    }
  }
  const matches = [...best.values()].sort((a, b) => b.score - a.score || a.uid - b.uid);
  return { hit: matches.length > 0, bestScore: matches[0]?.score ?? null, matches };
}

function parentReporting(record: LeiRecord, relation: ParentRelation, findRecord: OwnershipChainInput['findRecord']): ParentReporting {
  const parentLei = relation === 'DIRECT' ? record.directParent : record.ultimateParent;
  const link = relation === 'DIRECT' ? record.directParentLink : record.ultimateParentLink;
  const exceptionReason = relation === 'DIRECT' ? record.directParentException : record.ultimateParentException;
  const base = { childLei: record.lei, relation, parentLei, exceptionReason };
  if (parentLei !== null) {
    return findRecord(parentLei) ? { ...base, status: 'RESOLVED', resolved: true } : { ...base, status: 'NOT_IN_SNAPSHOT', resolved: false };
  }
  if (link === 'REPORTING_EXCEPTION' || exceptionReason !== null) {
    return { ...base, status: 'REPORTING_EXCEPTION', resolved: exceptionReason !== null && CLOSING_EXCEPTIONS.has(exceptionReason) };
  }
  return { ...base, status: link === 'REPORTED' ? 'NOT_IN_SNAPSHOT' : 'NOT_REPORTED', resolved: false };
}

interface ChainEntry {
  record: LeiRecord;
  role: OwnershipRole;
  level: number | null;
}

/** The subject's direct-parent line (at most MAX_OWNERSHIP_LEVELS steps, no entity twice), records found in the snapshot. */
function directLine(subject: LeiRecord, findRecord: OwnershipChainInput['findRecord']): LeiRecord[] {
  const line: LeiRecord[] = [];
  const seen = new Set([subject.lei]);
  let current = subject;
  while (line.length < MAX_OWNERSHIP_LEVELS && current.directParent !== null && !seen.has(current.directParent)) {
    const parent = findRecord(current.directParent);
    if (!parent) break;
    line.push(parent);
    seen.add(parent.lei);
    current = parent;
  }
  return line;
}

/**
 * The nodes of the chain: the subject, its direct parent, the ultimate parent and, when deep, the
 * direct parents between them. An entity appears once, under its highest role (a direct parent that
 * is also the ultimate parent is ULTIMATE_PARENT at level 1).
 */
function chainEntries(subject: LeiRecord, deep: boolean, findRecord: OwnershipChainInput['findRecord']): ChainEntry[] {
  const line = directLine(subject, findRecord);
  const ultimateLei = subject.ultimateParent !== null && subject.ultimateParent !== subject.lei ? subject.ultimateParent : null;
  const ultimateAt = ultimateLei === null ? -1 : line.findIndex((record) => record.lei === ultimateLei);
  const entries: ChainEntry[] = [{ record: subject, role: 'SUBJECT', level: 0 }];
  const upTo = ultimateAt >= 0 ? ultimateAt + 1 : line.length;
  line.slice(0, upTo).forEach((record, index) => {
    const role: OwnershipRole = index === ultimateAt ? 'ULTIMATE_PARENT' : index === 0 ? 'DIRECT_PARENT' : 'INTERMEDIATE_PARENT';
    if (deep || role !== 'INTERMEDIATE_PARENT') entries.push({ record, role, level: index + 1 });
  });
  if (ultimateLei !== null && ultimateAt < 0) {
    const ultimate = findRecord(ultimateLei);
    if (ultimate) entries.push({ record: ultimate, role: 'ULTIMATE_PARENT', level: null });
  }
  return entries;
}

function jurisdictionRisks(nodes: readonly OwnershipNode[], fatf: FatfList): JurisdictionRisk[] {
  const byJurisdiction = new Map<string, JurisdictionRisk>();
  for (const node of nodes) {
    if (node.jurisdiction === null) continue;
    const existing = byJurisdiction.get(node.jurisdiction);
    if (existing) {
      existing.leis.push(node.lei);
      continue;
    }
    const country = countryOfJurisdiction(node.jurisdiction);
    byJurisdiction.set(node.jurisdiction, { jurisdiction: node.jurisdiction, country, ...fatfListing(country, fatf), leis: [node.lei] });
  }
  return [...byJurisdiction.values()];
}

/** The highest level reached; an ultimate parent beyond the direct line counts one above it. */
function levelsTraversed(chain: readonly OwnershipNode[]): number {
  const highest = Math.max(...chain.map((node) => node.level ?? 0));
  return chain.some((node) => node.level === null) ? highest + 1 : highest;
}

/**
 * The result and its reasons (decision 0018):
 * 1. BLOCKED: a node matches an SDN entry at SANCTIONS_BLOCK_SCORE or more, or sits in a
 *    jurisdiction for which FATF calls for countermeasures.
 * 2. REVIEW_REQUIRED: a sanctions match from 0.70 up to the block score, a node in another
 *    jurisdiction subject to a FATF call for action (enhanced due diligence) or under increased
 *    monitoring, or a parent the snapshot cannot resolve.
 * 3. CLEAR otherwise.
 */
export function decideOwnershipResult(facts: { bestScore: number | null; jurisdictions: readonly JurisdictionRisk[]; parentsResolved: boolean }): {
  result: OwnershipResult;
  reasons: OwnershipReason[];
} {
  const reasons: OwnershipReason[] = [];
  const blocking = new Set<OwnershipReason>(['SANCTIONS_MATCH', 'FATF_COUNTERMEASURES_JURISDICTION']);
  if (facts.bestScore !== null) reasons.push(facts.bestScore >= SANCTIONS_BLOCK_SCORE ? 'SANCTIONS_MATCH' : 'SANCTIONS_POTENTIAL_MATCH');
  const callForAction = facts.jurisdictions.filter((j) => j.fatfStatus === 'CALL_FOR_ACTION');
  if (callForAction.some((j) => callsForCountermeasures(j.fatfCall))) reasons.push('FATF_COUNTERMEASURES_JURISDICTION');
  if (callForAction.some((j) => !callsForCountermeasures(j.fatfCall))) reasons.push('FATF_CALL_FOR_ACTION_JURISDICTION');
  if (facts.jurisdictions.some((j) => j.fatfStatus === 'INCREASED_MONITORING')) reasons.push('FATF_INCREASED_MONITORING_JURISDICTION');
  if (!facts.parentsResolved) reasons.push('PARENT_UNRESOLVED');
  const result: OwnershipResult = reasons.some((reason) => blocking.has(reason)) ? 'BLOCKED' : reasons.length > 0 ? 'REVIEW_REQUIRED' : 'CLEAR';
  return { result, reasons };
}

/** The ownership chain of `lei`, or undefined when the snapshot has no record of it. */
export function buildOwnershipChain(input: OwnershipChainInput): OwnershipChain | undefined {
  const subject = input.findRecord(input.lei);
  if (!subject) return undefined;
  const entries = chainEntries(subject, input.deep, input.findRecord);
  const chain: OwnershipNode[] = entries.map(({ record, role, level }) => ({
    lei: record.lei,
    name: record.legalName,
    role,
    level,
    jurisdiction: record.jurisdiction ?? record.country,
    leiStatus: record.status,
    sanctions: screenRecord(record, input.sanctions),
  }));
  // Each node's parents, up to the top of the chain: the ultimate parent's own parents are not asked for.
  const parentReports = entries
    .filter((entry) => entry.role !== 'ULTIMATE_PARENT')
    .flatMap(({ record }) => [parentReporting(record, 'DIRECT', input.findRecord), ...(record.lei === subject.lei ? [parentReporting(record, 'ULTIMATE', input.findRecord)] : [])]);
  const sanctionsMatches = chain.flatMap((node) => node.sanctions.matches.map((match) => ({ ...match, lei: node.lei, role: node.role })));
  sanctionsMatches.sort((a, b) => b.score - a.score || a.uid - b.uid);
  const jurisdictionRisk = jurisdictionRisks(chain, input.fatf);
  const parentsResolved = parentReports.every((report) => report.resolved);
  const bestScore = sanctionsMatches[0]?.score ?? null;
  const { result, reasons } = decideOwnershipResult({ bestScore, jurisdictions: jurisdictionRisk, parentsResolved });
  const sanctionsStatus: SanctionsStatus = bestScore === null ? 'NO_MATCH' : bestScore >= SANCTIONS_BLOCK_SCORE ? 'MATCH' : 'POTENTIAL_MATCH';
  return {
    lei: subject.lei,
    deep: input.deep,
    result,
    reasons,
    chain,
    sanctionsMatches,
    fatfAttestation: {
      beneficialOwnersIdentified: parentsResolved,
      ownershipLevelsTraversed: levelsTraversed(chain),
      nodesScreened: chain.length,
      sanctionsStatus,
      parentReporting: parentReports,
      jurisdictionRisk,
      fatfList: { plenary: input.fatf.plenary, statementDate: input.fatf.statementDate },
      note: ATTESTATION_NOTE,
    },
  };
}
