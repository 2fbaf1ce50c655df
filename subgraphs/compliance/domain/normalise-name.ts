// Name normalisation for screening and verification of payee (docs/compliance-matching.md §1).
// Pure: the same name always gives the same tokens.

import anyAscii from 'any-ascii';
import { LEGAL_FORM_ENTRIES, legalWord, writtenOutName } from './name-vocabulary.js';

export { LEGAL_FORMS } from './name-vocabulary.js';

/**
 * Connecting words, dropped wherever they stand ("Bank of China", "Banco Nacional de Cuba"): they
 * say nothing about who is named, and in long entity names they would match each other.
 */
export const CONNECTING_WORDS: ReadonlySet<string> = new Set(['and', 'the', 'of', 'for', 'und', 'et', 'y', 'de', 'del', 'la', 'le', 'du', 'des']);

/** Every writing of every legal form, longest first, with the form it designates. */
const LEGAL_FORM_WRITINGS: readonly { form: string; tokens: readonly string[] }[] = LEGAL_FORM_ENTRIES.flatMap(({ form, writings }) => writings.map((tokens) => ({ form, tokens }))).sort(
  (a, b) => b.tokens.length - a.tokens.length,
);

function writtenAt(tokens: readonly string[], offset: number, writing: readonly string[]): boolean {
  return writing.every((word, i) => tokens[offset + i] === word);
}

/** Written-out legal forms of two or more words with the form they designate, by first word, longest first. */
const SPELLED_OUT_FORMS: ReadonlyMap<string, readonly { tokens: readonly string[]; form: readonly string[] }[]> = LEGAL_FORM_WRITINGS.filter(
  ({ form, tokens }) => tokens.length > 1 && tokens.join(' ') !== form,
).reduce(
  (byFirst, { form, tokens }) => byFirst.set(tokens[0]!, [...(byFirst.get(tokens[0]!) ?? []), { tokens, form: form.split(' ') }]),
  new Map<string, { tokens: readonly string[]; form: readonly string[] }[]>(),
);

/**
 * Legal wording in one spelling wherever it stands: each word through its abbreviation (limited →
 * ltd, company → co), then a written-out form replaced by its designation (ltd liability co → llc).
 * A form inside a name (RUNNING BROOK, LLC (USA)) is then written alike on both sides.
 */
export function canonicalLegalWording(input: readonly string[]): string[] {
  const tokens = input.map(legalWord);
  const out: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const spelled = SPELLED_OUT_FORMS.get(tokens[i]!)?.find(({ tokens: writing }) => writing.length <= tokens.length - i && writtenAt(tokens, i, writing));
    if (spelled) {
      out.push(...spelled.form);
      i += spelled.tokens.length;
    } else out.push(tokens[i++]!);
  }
  return out;
}

type Writing = { form: string; tokens: readonly string[] };

function byWord(word: (tokens: readonly string[]) => string): ReadonlyMap<string, readonly Writing[]> {
  const map = new Map<string, Writing[]>();
  for (const writing of LEGAL_FORM_WRITINGS) map.set(word(writing.tokens), [...(map.get(word(writing.tokens)) ?? []), writing]);
  return map;
}

/** The writings by their last and by their first word (each list longest first). */
const WRITINGS_BY_LAST = byWord((tokens) => tokens[tokens.length - 1]!);
const WRITINGS_BY_FIRST = byWord((tokens) => tokens[0]!);

/** A legal form at the end of the tokens (never all of them), longest writing first. */
function legalFormAtEnd(tokens: readonly string[]): { form: string; length: number } | undefined {
  for (const { form, tokens: writing } of WRITINGS_BY_LAST.get(tokens[tokens.length - 1] ?? '') ?? []) {
    if (writing.length < tokens.length && writtenAt(tokens, tokens.length - writing.length, writing)) return { form, length: writing.length };
  }
  return undefined;
}

function legalFormAtStart(tokens: readonly string[]): { form: string; length: number } | undefined {
  for (const { form, tokens: writing } of WRITINGS_BY_FIRST.get(tokens[0] ?? '') ?? []) {
    if (writing.length < tokens.length && writtenAt(tokens, 0, writing)) return { form, length: writing.length };
  }
  return undefined;
}

/**
 * Splits the legal forms off both ends, repeatedly, keeping at least one token: the remaining
 * tokens and the canonical designations found (LIMITED LIABILITY COMPANY and LTD LIABILITY CO are
 * both `llc`; Aktiengesellschaft is `ag`).
 */
export function splitLegalForms(input: readonly string[]): { tokens: string[]; forms: string[] } {
  let tokens = [...input];
  const forms: string[] = [];
  for (;;) {
    const end = legalFormAtEnd(tokens);
    if (end) {
      forms.push(end.form);
      tokens = tokens.slice(0, tokens.length - end.length);
      continue;
    }
    const start = legalFormAtStart(tokens);
    if (!start) return { tokens, forms };
    forms.push(start.form);
    tokens = tokens.slice(start.length);
  }
}

/** Spellings of one particle read as one: the Arabic article is romanised al- and el- alike. */
const ARTICLE_VARIANTS: ReadonlyMap<string, string> = new Map([['el', 'al']]);

/** Runs of single letters or digits each followed by a dot ("s.a.", "l.l.c", "u.s.a."). */
const DOTTED_INITIALS = /\b(?:[a-z0-9]\.)+(?:[a-z0-9]\b)?/g;

/**
 * Runs of two or more single letters joined into one token: OFAC and registries write dotted
 * abbreviations with the dots removed (`S A`, `DE C V`, `L L C`), and one-letter tokens would each
 * count as an unmatched word. Digits stay apart (`3 M` is not `3m`).
 */
function joinSingleLetters(tokens: readonly string[]): string[] {
  const joined: string[] = [];
  let run = '';
  const flush = () => {
    if (run !== '') joined.push(run);
    run = '';
  };
  for (const token of tokens) {
    if (/^[a-z]$/.test(token)) {
      run += token;
      continue;
    }
    flush();
    joined.push(token);
  }
  flush();
  return joined;
}

/**
 * The words of a name before legal forms and connecting words are dropped:
 * 1. NFKD, then combining marks removed (é → e, ç → c);
 * 2. what is still not ASCII transliterated by any-ascii (Мосгаз → Mosgaz, ß → ss, Ø → O);
 * 3. lower case;
 * 4. apostrophes removed inside words (Qa'ida → qaida), `&` read as `and`, dotted initials joined
 *    (S.A. → sa, L.L.C. → llc), every other character that is not a letter or digit a separator;
 * 5. runs of single letters joined (S A → sa, the same as S.A.);
 * 6. the article el read as al (al-Khatib, El Khatib), a given name's abbreviation written out
 *    (Mhd, Mohd → muhammad: writtenOutName);
 * 7. legal wording in one spelling (canonicalLegalWording: limited → ltd, joint stock co → jsc).
 */
export function nameWords(name: string): string[] {
  const ascii = anyAscii(name.normalize('NFKD').replace(/\p{M}+/gu, '')).toLowerCase();
  const text = ascii
    .replace(/['`\u2018\u2019]/g, '')
    .replace(/&/g, ' and ')
    .replace(DOTTED_INITIALS, (initials) => `${initials.replace(/\./g, '')} `)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  if (text === '') return [];
  return canonicalLegalWording(joinSingleLetters(text.split(' ')).map((token) => writtenOutName(ARTICLE_VARIANTS.get(token) ?? token)));
}

/** The words left when the connecting words are dropped, unless nothing else is left. */
export function withoutConnectingWords(tokens: readonly string[]): string[] {
  const words = tokens.filter((token) => !CONNECTING_WORDS.has(token));
  return words.length > 0 ? words : [...tokens];
}

/**
 * The normalised tokens of a name, in their original order: nameWords, then legal forms dropped at
 * either end (splitLegalForms, the forms of data/name-vocabulary.json read through their
 * abbreviations), then connecting words (CONNECTING_WORDS) wherever they stand, keeping at least
 * one token.
 */
export function nameTokens(name: string): string[] {
  return withoutConnectingWords(splitLegalForms(nameWords(name)).tokens);
}

/** The order-insensitive form of a name: its normalised tokens, sorted, joined by one space. */
export function normaliseName(name: string): string {
  return nameTokens(name).sort().join(' ');
}
