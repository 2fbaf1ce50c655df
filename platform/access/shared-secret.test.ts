import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { createRequestContext } from '../request-context.js';
import { requireAdminKey, requireInternalKey, sameSecret } from './shared-secret.js';

const SECRET = 'an-internal-key-of-at-least-32-characters';
const context = (headers: Record<string, string | undefined>) => createRequestContext(headers, new ManualClock('2026-11-22T12:00:00Z'));

describe('shared secrets (X-Internal-Key, the admin key)', () => {
  it.each([
    ['the same secret', SECRET, SECRET, true],
    ['a different secret of the same length', `${SECRET.slice(0, -1)}x`, SECRET, false],
    ['a prefix of the secret', SECRET.slice(0, 10), SECRET, false],
    ['the secret with more after it', `${SECRET}x`, SECRET, false],
    ['nothing presented', undefined, SECRET, false],
    ['no secret configured', SECRET, undefined, false],
    ['an empty string against an unset secret', '', undefined, false],
  ])('%s: %s', (_name, presented, configured, expected) => {
    expect(sameSecret(presented, configured)).toBe(expected);
  });

  it('admits X-Internal-Key only when it is the configured INTERNAL_KEY, with a 401 otherwise', () => {
    expect(() => requireInternalKey(context({ 'x-internal-key': SECRET }), SECRET)).not.toThrow();
    for (const headers of [{}, { 'x-internal-key': 'wrong' }, { authorization: `Bearer ${SECRET}` }]) {
      expect(() => requireInternalKey(context(headers), SECRET)).toThrow(expect.objectContaining({ code: 'GEN_ERR_UNAUTHORIZED', status: 401 }));
    }
    expect(() => requireInternalKey(context({ 'x-internal-key': SECRET }), undefined)).toThrow(expect.objectContaining({ status: 401 }));
  });

  it('admits administration only with Authorization: Bearer and the admin key', () => {
    expect(() => requireAdminKey(context({ authorization: `Bearer ${SECRET}` }), SECRET)).not.toThrow();
    expect(() => requireAdminKey(context({ authorization: `bearer ${SECRET}` }), SECRET)).not.toThrow();
    for (const headers of [{}, { authorization: SECRET }, { authorization: `Basic ${SECRET}` }, { 'x-internal-key': SECRET }, { authorization: 'Bearer wrong' }]) {
      expect(() => requireAdminKey(context(headers), SECRET)).toThrow(expect.objectContaining({ code: 'GEN_ERR_UNAUTHORIZED' }));
    }
  });
});
