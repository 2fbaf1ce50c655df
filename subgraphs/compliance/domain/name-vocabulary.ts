// The word lists of the name matchers, kept in data/name-vocabulary.json (decision 0055): legal
// forms with their written-out variants, the abbreviations legal forms are written with, the word
// equivalences of verification of payee, and the abbreviations of given names. The file is a
// module of parameters, read when the module loads like any constant; nothing here does I/O.

import vocabulary from '../data/name-vocabulary.json' with { type: 'json' };

/** A legal form: its canonical designation and every writing of it, each as normalised tokens. */
export interface LegalFormEntry {
  form: string;
  /** The designation and its variants, each split into tokens (legal words already abbreviated). */
  writings: readonly (readonly string[])[];
}

const LEGAL_WORD_ABBREVIATIONS: ReadonlyMap<string, string> = new Map(Object.entries(vocabulary.legalWordAbbreviations));

/** A word of a legal form as the forms are written in the file (limited → ltd, company → co). */
export const legalWord = (token: string): string => LEGAL_WORD_ABBREVIATIONS.get(token) ?? token;

export const LEGAL_FORM_ENTRIES: readonly LegalFormEntry[] = vocabulary.legalForms.map(({ form, variants }) => ({
  form,
  writings: [form, ...variants].map((writing) => writing.split(' ').map(legalWord)),
}));

/** Every designation and variant of the file, as written there. */
export const LEGAL_FORMS: readonly string[] = vocabulary.legalForms.flatMap(({ form, variants }) => [form, ...variants]);

const WORD_EQUIVALENCES: ReadonlyMap<string, string> = new Map(Object.entries(vocabulary.wordEquivalences));

/** The word an abbreviation or numeral stands for (inst → institute, 1st → first), else the token. */
export const equivalentWord = (token: string): string => WORD_EQUIVALENCES.get(token) ?? token;

const NAME_ABBREVIATIONS: ReadonlyMap<string, string> = new Map(Object.entries(vocabulary.nameAbbreviations));

/** The given name an abbreviation stands for (mhd, mohd → muhammad), else the token. */
export const writtenOutName = (token: string): string => NAME_ABBREVIATIONS.get(token) ?? token;
