// Name normalisation for screening and verification of payee (docs/compliance-matching.md §1).
// Pure: the same name always gives the same tokens.

import anyAscii from 'any-ascii';

/**
 * Legal-form designations, in normalised form (lower case, dotted initials joined, `&` read as
 * `and`). They are dropped at either end of a name, never inside it: "OOO Romashka" and
 * "Romashka LLC" lose them, "Smith Co Holdings" keeps its "co". Longer forms are tried first.
 */
export const LEGAL_FORMS: readonly string[] = [
  // English-speaking
  'inc', 'incorporated', 'ltd', 'limited', 'llc', 'llp', 'lp', 'plc', 'co', 'corp', 'corporation', 'company',
  'pty', 'pte', 'pvt', 'private limited', 'co ltd', 'co inc',
  // German, Dutch, Nordic, Central European
  'gmbh', 'ag', 'kg', 'kgaa', 'ohg', 'ug', 'gmbh and co kg', 'bv', 'nv', 'se', 'ab', 'oy', 'oyj', 'as', 'asa', 'aps',
  'kft', 'zrt', 'sro', 'sp z oo', 'doo', 'dd',
  // Romance languages and Latin America
  'sa', 'sas', 'sarl', 'sl', 'spa', 'srl', 'ltda', 'sa de cv', 'sab de cv', 'sapi de cv', 's de rl', 's de rl de cv', 'sal',
  // Russian, Ukrainian and other post-Soviet forms (after transliteration), abbreviated and written out
  'ooo', 'oao', 'zao', 'pao', 'ao', 'pjsc', 'ojsc', 'cjsc', 'jsc', 'tov', 'ad', 'ead', 'ood', 'eood',
  'limited liability company', 'limited liability partnership', 'joint stock company',
  'public joint stock company', 'open joint stock company', 'closed joint stock company',
  'obshchestvo s ogranichennoi otvetstvennostyu', 'aktsionernoe obshchestvo', 'publichnoe aktsionernoe obshchestvo',
  'otkrytoe aktsionernoe obshchestvo', 'zakrytoe aktsionernoe obshchestvo',
  // Gulf and Asia
  'fze', 'fzco', 'fzc', 'fz llc', 'fzllc', 'wll', 'bsc', 'saog', 'saoc', 'sae', 'bhd', 'sdn bhd',
];

/**
 * Connecting words, dropped wherever they stand ("Bank of China", "Banco Nacional de Cuba"): they
 * say nothing about who is named, and in long entity names they would match each other.
 */
export const CONNECTING_WORDS: ReadonlySet<string> = new Set(['and', 'the', 'of', 'for', 'und', 'et', 'y', 'de', 'del', 'la', 'le', 'du', 'des']);

const LEGAL_FORM_TOKENS: readonly (readonly string[])[] = [...LEGAL_FORMS]
  .map((form) => form.split(' '))
  .sort((a, b) => b.length - a.length);

function endsWith(tokens: readonly string[], form: readonly string[]): boolean {
  if (form.length >= tokens.length) return false;
  const offset = tokens.length - form.length;
  return form.every((token, i) => tokens[offset + i] === token);
}

function startsWith(tokens: readonly string[], form: readonly string[]): boolean {
  if (form.length >= tokens.length) return false;
  return form.every((token, i) => tokens[i] === token);
}

/** Drops legal forms at both ends, repeatedly; at least one token always remains. */
function stripLegalForms(tokens: string[]): string[] {
  let changed = true;
  while (changed && tokens.length > 1) {
    changed = false;
    for (const form of LEGAL_FORM_TOKENS) {
      if (endsWith(tokens, form)) {
        tokens = tokens.slice(0, tokens.length - form.length);
        changed = true;
        break;
      }
      if (startsWith(tokens, form)) {
        tokens = tokens.slice(form.length);
        changed = true;
        break;
      }
    }
  }
  return tokens;
}

/** Spellings of one particle read as one: the Arabic article is romanised al- and el- alike. */
const ARTICLE_VARIANTS: ReadonlyMap<string, string> = new Map([['el', 'al']]);

/** Runs of single letters or digits each followed by a dot ("s.a.", "l.l.c", "u.s.a."). */
const DOTTED_INITIALS = /\b(?:[a-z0-9]\.)+(?:[a-z0-9]\b)?/g;

/**
 * The normalised tokens of a name, in their original order:
 * 1. NFKD, then combining marks removed (é → e, ç → c);
 * 2. what is still not ASCII transliterated by any-ascii (Мосгаз → Mosgaz, ß → ss, Ø → O);
 * 3. lower case;
 * 4. apostrophes removed inside words (Qa'ida → qaida), `&` read as `and`, dotted initials joined
 *    (S.A. → sa, L.L.C. → llc), every other character that is not a letter or digit a separator;
 * 5. the article el read as al (al-Khatib, El Khatib);
 * 6. legal forms dropped at either end (see LEGAL_FORMS), then connecting words (CONNECTING_WORDS)
 *    wherever they stand, keeping at least one token.
 */
export function nameTokens(name: string): string[] {
  const ascii = anyAscii(name.normalize('NFKD').replace(/\p{M}+/gu, '')).toLowerCase();
  const text = ascii
    .replace(/['`\u2018\u2019]/g, '')
    .replace(/&/g, ' and ')
    .replace(DOTTED_INITIALS, (initials) => `${initials.replace(/\./g, '')} `)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  if (text === '') return [];
  const tokens = stripLegalForms(text.split(' ').map((token) => ARTICLE_VARIANTS.get(token) ?? token));
  const words = tokens.filter((token) => !CONNECTING_WORDS.has(token));
  return words.length > 0 ? words : tokens;
}

/** The order-insensitive form of a name: its normalised tokens, sorted, joined by one space. */
export function normaliseName(name: string): string {
  return nameTokens(name).sort().join(' ');
}
