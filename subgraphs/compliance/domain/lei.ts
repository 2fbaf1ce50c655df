// ISO 17442 legal entity identifiers: 18 characters [0-9A-Z] and two check digits computed with
// ISO 7064 MOD 97-10 (the scheme of IBANs).

const LEI_SHAPE = /^[0-9A-Z]{18}[0-9]{2}$/;
const BASE_SHAPE = /^[0-9A-Z]{18}$/;

/**
 * The identifier read as one number, digits kept and letters A..Z written as 10..35, modulo 97.
 * Computed a character at a time so no big integer is needed.
 */
function mod97(text: string): number {
  let remainder = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // '0'-'9' are 48-57; 'A'-'Z' (65-90) stand for 10-35 and take two decimal places.
    remainder = code <= 57 ? (remainder * 10 + (code - 48)) % 97 : (remainder * 100 + (code - 55)) % 97;
  }
  return remainder;
}

/** True for a well-formed LEI whose value is 1 modulo 97. Upper case only, as ISO 17442 writes it. */
export function isValidLei(lei: string): boolean {
  return LEI_SHAPE.test(lei) && mod97(lei) === 1;
}

/** The two check digits for an 18-character LEI base: 98 − (base · 100 mod 97), zero-padded. */
export function leiCheckDigits(base: string): string {
  if (!BASE_SHAPE.test(base)) throw new RangeError('An LEI base is 18 characters of 0-9 and A-Z.');
  return String(98 - mod97(`${base}00`)).padStart(2, '0');
}
