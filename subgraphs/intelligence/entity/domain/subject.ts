// The subject of an entity ESG answer (spec §2 shape 6): an EVM wallet address or an LEI. Pure:
// the EIP-55 checksum of a mixed-case address needs keccak, so the endpoint checks it (esg.ts).

/** An LEI (ISO 17442) or a wallet, normalised: the LEI upper-case, the address lower-case. */
export type EsgSubject = { kind: 'lei'; lei: string } | { kind: 'wallet'; address: string };

const LEI_FORM = /^[0-9A-Z]{18}[0-9]{2}$/;
const ADDRESS_FORM = /^0x[0-9a-fA-F]{40}$/;

/**
 * ISO 17442 check digits (ISO 7064 MOD 97-10): letters read as 10-35, the 20 characters as one
 * number, which leaves 1 when divided by 97. Worked digit by digit so no big integer is needed.
 */
export function hasValidLeiCheckDigits(lei: string): boolean {
  if (!LEI_FORM.test(lei)) return false;
  let remainder = 0;
  for (const character of lei) {
    const value = Number.parseInt(character, 36);
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/** 0x and 40 hex digits (the checksum of a mixed-case address is checked by the caller). */
export function hasAddressForm(text: string): boolean {
  return ADDRESS_FORM.test(text);
}

/** The subject named by `text`, or undefined when it is neither a valid LEI nor an address of the right form. */
export function esgSubjectOf(text: string): EsgSubject | undefined {
  if (hasAddressForm(text)) return { kind: 'wallet', address: text.toLowerCase() };
  const upper = text.toUpperCase();
  return hasValidLeiCheckDigits(upper) ? { kind: 'lei', lei: upper } : undefined;
}

/** One cache entry per subject. */
export function subjectKey(subject: EsgSubject): string {
  return subject.kind === 'lei' ? `lei:${subject.lei}` : `wallet:${subject.address}`;
}
