import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHmacSigner, loadOrCreateSigningKey, SigningKeyError } from './signing.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'srg-key-'));

describe('the generated quote signing key', () => {
  it('is 64 hex characters, private to the owner, and the same on the next start', () => {
    const dataDir = freshDir();
    const key = loadOrCreateSigningKey(dataDir);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dataDir, 'quote-signing.key')).mode & 0o077).toBe(0);
    expect(loadOrCreateSigningKey(dataDir)).toBe(key);
  });

  it.each([
    { content: '', what: 'a 0-byte key file (left by a first start on a full disk)' },
    { content: 'abc', what: 'a 3-character key file' },
    { content: 'x'.repeat(31), what: 'a 31-byte key file' },
  ])('finding: $what is refused at start instead of signing quote ids under it', ({ content }) => {
    const dataDir = freshDir();
    writeFileSync(join(dataDir, 'quote-signing.key'), content);
    expect(() => loadOrCreateSigningKey(dataDir)).toThrow(SigningKeyError);
    expect(() => loadOrCreateSigningKey(dataDir)).toThrow(/at least 32 are required/);
  });

  it('finding: a failed write leaves no key file at all (written aside, then renamed into place)', () => {
    const dataDir = freshDir();
    // The temporary file cannot be created (a folder holds its name): the write fails midway.
    mkdirSync(join(dataDir, `quote-signing.key.${process.pid}.tmp`));
    expect(() => loadOrCreateSigningKey(dataDir)).toThrow(SigningKeyError);
    expect(existsSync(join(dataDir, 'quote-signing.key'))).toBe(false);
  });

  it('signs under the key it loaded: another key does not verify', () => {
    const dataDir = freshDir();
    const signer = createHmacSigner(loadOrCreateSigningKey(dataDir));
    const token = signer.sign('payload').slice(0, 24);
    expect(signer.verify('payload', token)).toBe(true);
    expect(createHmacSigner(`${readFileSync(join(dataDir, 'quote-signing.key'), 'utf8')}x`).verify('payload', token)).toBe(false);
  });
});
