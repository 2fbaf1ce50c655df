/**
 * ISO 20022 decimal quantities read exactly, as text (decision 0022). No floating point touches an
 * amount: a JSON number is accepted only when its text is certainly the one the sender wrote.
 *
 * The facets are XML Schema 1.0 Part 2 facets on xs:decimal, which constrain the VALUE, not the
 * spelling (§4.3.11 totalDigits, §4.3.12 fractionDigits): "1.50000000" has 1 fraction digit and
 * 2 total digits. Leading zeros and trailing fraction zeros are therefore not counted.
 */

/** ActiveOrHistoricCurrencyAndAmount_SimpleType: minInclusive 0, totalDigits 18, fractionDigits 5. */
export const ISO_AMOUNT_TOTAL_DIGITS = 18;
export const ISO_AMOUNT_FRACTION_DIGITS = 5;
/** DecimalNumber (GrpHdr.CtrlSum, PmtInf.CtrlSum): totalDigits 18, fractionDigits 17. */
export const ISO_DECIMAL_NUMBER_TOTAL_DIGITS = 18;
export const ISO_DECIMAL_NUMBER_FRACTION_DIGITS = 17;
/** Longest decimal text read at all (leading zeros included): anything longer is refused unread. */
export const MAX_DECIMAL_TEXT_LENGTH = 64;
/**
 * A binary64 number holds any decimal of at most 15 significant digits exactly enough that its
 * shortest text (what String(n) prints) is that decimal (DBL_DIG = 15, IEEE 754 / C11 5.2.4.2.2).
 */
export const MAX_EXACT_JSON_NUMBER_DIGITS = 15;

/** Unsigned decimal text: digits, optionally a point and digits. No sign, exponent or bare point. */
const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/;

export interface DecimalDigits {
  /** Significant digits before the point (leading zeros dropped). */
  integer: string;
  /** Digits after the point (trailing zeros dropped). */
  fraction: string;
}

/** The value's digits, or undefined when the text is not an unsigned decimal. */
export function decimalDigits(text: string): DecimalDigits | undefined {
  if (text.length > MAX_DECIMAL_TEXT_LENGTH) return undefined;
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return undefined;
  return { integer: (match[1] ?? '').replace(/^0+/, ''), fraction: (match[2] ?? '').replace(/0+$/, '') };
}

/**
 * Why `text` is not a decimal within the facets, or undefined when it is.
 * `positive` refuses zero (an amount of nothing moves nothing: ExternalStatusReason1Code AM01 ZeroAmount).
 */
export function decimalProblem(text: string, facets: { totalDigits: number; fractionDigits: number; positive: boolean }): string | undefined {
  if (text.length > MAX_DECIMAL_TEXT_LENGTH) return `must be at most ${MAX_DECIMAL_TEXT_LENGTH} characters`;
  const digits = decimalDigits(text);
  if (!digits) return 'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)';
  if (digits.fraction.length > facets.fractionDigits) return `must have at most ${facets.fractionDigits} fraction digits`;
  if (digits.integer.length + digits.fraction.length > facets.totalDigits) return `must have at most ${facets.totalDigits} digits in total`;
  if (facets.positive && digits.integer === '' && digits.fraction === '') return 'must be greater than 0';
  return undefined;
}

/** The ISO amount facets (ActiveOrHistoricCurrencyAndAmount), zero refused. */
export function amountProblem(text: string): string | undefined {
  return decimalProblem(text, { totalDigits: ISO_AMOUNT_TOTAL_DIGITS, fractionDigits: ISO_AMOUNT_FRACTION_DIGITS, positive: true });
}

/** The DecimalNumber facets (CtrlSum). */
export function controlSumProblem(text: string): string | undefined {
  return decimalProblem(text, { totalDigits: ISO_DECIMAL_NUMBER_TOTAL_DIGITS, fractionDigits: ISO_DECIMAL_NUMBER_FRACTION_DIGITS, positive: false });
}

/**
 * The text of a JSON number when it is certainly what the sender wrote, else undefined.
 * 1. Not finite (JSON.parse turns 1e309 into Infinity), negative, or printed with an exponent
 *    (1e21, 1e-7): refused.
 * 2. More than 15 significant digits: refused, because JSON.parse may already have rounded it
 *    (12345678901234567.8 arrives as 12345678901234568). Such amounts must be sent as strings.
 */
export function exactJsonNumberText(value: number): string | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const text = String(value);
  const digits = decimalDigits(text);
  if (!digits) return undefined;
  const significant = `${digits.integer}${digits.fraction}`.replace(/^0+/, '');
  return significant.length <= MAX_EXACT_JSON_NUMBER_DIGITS ? text : undefined;
}

/** The number of fraction digits of a decimal's value (trailing zeros not counted). */
export function fractionDigitsOf(text: string): number | undefined {
  return decimalDigits(text)?.fraction.length;
}

/**
 * Exact sum of unsigned decimal texts, as a decimal text without superfluous zeros ("0" for none).
 * Scaled integers (bigint), so 0.1 + 0.2 is 0.3.
 */
export function sumDecimals(texts: readonly string[]): string {
  const parsed = texts.map((text) => {
    const digits = decimalDigits(text);
    if (!digits) throw new RangeError(`not an unsigned decimal: ${text.slice(0, MAX_DECIMAL_TEXT_LENGTH)}`);
    return digits;
  });
  const scale = Math.max(0, ...parsed.map((digits) => digits.fraction.length));
  const total = parsed.reduce((sum, digits) => sum + BigInt(`${digits.integer}${digits.fraction.padEnd(scale, '0')}` || '0'), 0n);
  const text = total.toString().padStart(scale + 1, '0');
  const integer = text.slice(0, text.length - scale);
  const fraction = text.slice(text.length - scale).replace(/0+$/, '');
  return fraction ? `${integer}.${fraction}` : integer;
}

/** True when two unsigned decimal texts have the same value ("1250.5" and "1250.50000"). */
export function sameDecimal(a: string, b: string): boolean {
  const left = decimalDigits(a);
  const right = decimalDigits(b);
  return left !== undefined && right !== undefined && left.integer === right.integer && left.fraction === right.fraction;
}

/**
 * The value of an unsigned decimal text in one spelling: no leading zeros before the point, no
 * trailing zeros after it, no point without a fraction ("01250.50" and "1250.5" are "1250.5";
 * "0.0" is "0"). A text that is not an unsigned decimal is returned as it is.
 */
export function canonicalDecimal(text: string): string {
  const digits = decimalDigits(text);
  if (!digits) return text;
  const integer = digits.integer || '0';
  return digits.fraction ? `${integer}.${digits.fraction}` : integer;
}
