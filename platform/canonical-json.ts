import { createHash } from 'node:crypto';

/** A JSON value as JSON.parse gives it. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * RFC 8785 (JSON Canonicalization Scheme): object members sorted by their names' UTF-16 code
 * units, no whitespace, strings and numbers serialized as ECMAScript's JSON.stringify writes them
 * (which is what JCS prescribes). Non-finite numbers and lone surrogates (not I-JSON, RFC 7493)
 * are refused with a RangeError. Own enumerable members only, so a `__proto__` member parsed
 * from JSON is data like any other.
 */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError('canonical JSON holds finite numbers only');
    if (typeof value === 'string' && LONE_SURROGATE.test(value)) throw new RangeError('canonical JSON holds well-formed strings only');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const object = value as { readonly [key: string]: JsonValue };
  const keys = Object.keys(object).sort();
  return `{${keys.map((key) => `${canonicalJson(key)}:${canonicalJson(object[key]!)}`).join(',')}}`;
}

/** Hex SHA-256 of the value's canonical JSON (UTF-8). */
export function canonicalSha256(value: JsonValue): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
