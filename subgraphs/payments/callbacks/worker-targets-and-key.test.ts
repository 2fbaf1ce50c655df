import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/helpers.js';
import { TEST_WEBHOOK_KEY } from './testing.js';
import { isNonPublicAddress, webhookSigningKeyOf } from './worker.js';

// The callback worker's target rule and its signing key (worker.ts), apart from its deliveries
// (worker.test.ts).

describe('isNonPublicAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['8.8.8.8', false],
    ['::1', true],
    ['::', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::a00:1', true],
    ['2606:4700:4700::1111', false],
    ['not-an-ip', true],
  ])('%s -> %s', (address, expected) => {
    expect(isNonPublicAddress(address)).toBe(expected);
  });
});

describe('webhookSigningKeyOf', () => {
  it('uses WEBHOOK_SIGNING_KEY when set', () => {
    expect(webhookSigningKeyOf(testConfig({ WEBHOOK_SIGNING_KEY: TEST_WEBHOOK_KEY }))).toBe(TEST_WEBHOOK_KEY);
  });

  it('otherwise generates one key into DATA_DIR (owner-only), the same on the next start, distinct from the quote key', () => {
    const config = testConfig();
    const key = webhookSigningKeyOf(config);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(config.database.dataDir, 'webhook-signing.key')).mode & 0o077).toBe(0);
    expect(webhookSigningKeyOf(config)).toBe(key);
    expect(key).not.toBe(config.signing.quoteSigningKey);
  });

  it('refuses a short key file, naming the webhook key and its variable', () => {
    const config = testConfig();
    writeFileSync(join(config.database.dataDir, 'webhook-signing.key'), 'short');
    expect(() => webhookSigningKeyOf(config)).toThrow(/webhook signing key in .*holds 5 bytes.*set WEBHOOK_SIGNING_KEY/);
  });

  it('WEBHOOK_SIGNING_KEY shorter than 32 characters is a configuration error', () => {
    expect(() => testConfig({ WEBHOOK_SIGNING_KEY: 'too-short' })).toThrow(/WEBHOOK_SIGNING_KEY: must hold at least 32 characters/);
  });
});
