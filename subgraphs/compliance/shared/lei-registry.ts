/** One record of the LEI registry snapshot, as the compliance families read it. */
export interface LeiEntry {
  lei: string;
  legalName: string;
  /** ACTIVE when the entity is active and its registration current; else the registry's status (LAPSED, RETIRED, ...). */
  leiStatus: string;
  jurisdiction: string | null;
  otherNames: readonly string[];
}

/** The LEI registry the families look entities up in (the shipped GLEIF snapshot: index.ts shippedLeiRegistry). */
export interface LeiRegistry {
  /** ISO 17442: 20 characters with valid MOD 97-10 check digits. */
  isValidLei(lei: string): boolean;
  find(lei: string): LeiEntry | undefined;
  /** Every record, for the name search; a registry without it finds no name. */
  entries?(): Iterable<LeiEntry>;
}
