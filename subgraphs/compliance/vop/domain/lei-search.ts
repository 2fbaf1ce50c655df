// A name to LEI search over the registry snapshot (decision 0034): the VoP name score (similarity
// 0-1 as 0-100) of the query against each entity's legal and other names; the matches at the VoP "high
// confidence" band or above, best first.

export interface LeiSearchEntry {
  lei: string;
  legalName: string;
  leiStatus: string;
  jurisdiction: string | null;
  otherNames: readonly string[];
}

export interface LeiSearchMatch {
  lei: string;
  legalName: string;
  leiStatus: string;
  jurisdiction: string | null;
  /** The name that matched best (the legal name or one of the other names). */
  matchedName: string;
  score: number;
}

/** Lower bound of a name match: the VoP PROCEED_HIGH_CONFIDENCE band (Document 2 §3). */
export const LEI_SEARCH_MIN_SCORE = 75;
export const LEI_SEARCH_LIMIT = 5;

export function searchLeiByName(entries: Iterable<LeiSearchEntry>, query: string, similarity: (submitted: string, registered: string) => number): LeiSearchMatch[] {
  const matches: LeiSearchMatch[] = [];
  for (const entry of entries) {
    let best = { name: entry.legalName, score: similarity(query, entry.legalName) * 100 };
    for (const other of entry.otherNames) {
      const score = similarity(query, other) * 100;
      if (score > best.score) best = { name: other, score };
    }
    if (best.score >= LEI_SEARCH_MIN_SCORE)
      matches.push({ lei: entry.lei, legalName: entry.legalName, leiStatus: entry.leiStatus, jurisdiction: entry.jurisdiction, matchedName: best.name, score: Math.round(best.score * 10) / 10 });
  }
  return matches.sort((a, b) => b.score - a.score || a.lei.localeCompare(b.lei)).slice(0, LEI_SEARCH_LIMIT);
}
