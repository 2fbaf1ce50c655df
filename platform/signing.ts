import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface HmacSigner {
  /** Hex HMAC-SHA256 of the payload. */
  sign(payload: string): string;
  /** Constant-time check that `token` is a prefix (of at least 16 hex chars) of the payload's signature. */
  verify(payload: string, token: string): boolean;
}

const MIN_TOKEN_HEX = 16;

export function createHmacSigner(key: string): HmacSigner {
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('hex');
  return {
    sign,
    verify(payload, token) {
      if (token.length < MIN_TOKEN_HEX || !/^[0-9a-f]+$/.test(token)) return false;
      const expected = Buffer.from(sign(payload).slice(0, token.length));
      const given = Buffer.from(token);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

/** Shortest key accepted, in bytes: an HMAC-SHA256 key shorter than its output weakens it. */
export const MIN_SIGNING_KEY_BYTES = 32;

/** How a generated key is named in errors: what it is, and the variable that sets it instead. */
export interface SigningKeyNames {
  label: string;
  variable: string;
}

const QUOTE_KEY_NAMES: SigningKeyNames = { label: 'quote signing key', variable: 'QUOTE_SIGNING_KEY' };

/**
 * The embedded mode needs a stable key without set-up: one is generated on first start and kept
 * in the data folder (mode 0600), so quote ids stay verifiable across restarts.
 * 1. The key is written to a temporary file, flushed, and renamed into place: a crash or a full
 *    disk leaves either no key or a whole one, never an empty file.
 * 2. A key file shorter than 32 bytes is refused at start (an empty key makes every id forgeable).
 */
export function loadOrCreateSigningKey(dataDir: string, fileName = 'quote-signing.key', names: SigningKeyNames = QUOTE_KEY_NAMES): string {
  const path = join(dataDir, fileName);
  if (existsSync(path)) return checkedKey(readFileSync(path, 'utf8').trim(), path, names);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('hex');
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const descriptor = openSync(temporary, 'w', 0o600);
    try {
      writeSync(descriptor, key);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true, recursive: true });
    throw new SigningKeyError(`could not write the ${names.label} to ${path}`, { cause: error });
  }
  return key;
}

function checkedKey(key: string, path: string, names: SigningKeyNames): string {
  if (Buffer.byteLength(key, 'utf8') < MIN_SIGNING_KEY_BYTES) {
    throw new SigningKeyError(
      `The ${names.label} in ${path} holds ${Buffer.byteLength(key, 'utf8')} bytes; at least ${MIN_SIGNING_KEY_BYTES} are required. ` +
        `Remove the file to have a new key generated (what was signed under the old key will no longer verify), or set ${names.variable}.`,
    );
  }
  return key;
}
