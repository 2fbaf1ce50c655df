import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/**
 * The embedded mode needs a stable key without set-up: one is generated on first start and kept
 * in the data folder (mode 0600), so quote ids stay verifiable across restarts.
 */
export function loadOrCreateSigningKey(dataDir: string, fileName = 'quote-signing.key'): string {
  const path = join(dataDir, fileName);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('hex');
  writeFileSync(path, key, { mode: 0o600 });
  return key;
}
