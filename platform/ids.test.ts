import { describe, expect, it } from 'vitest';
import { randomIds } from './ids.js';

describe('random ids', () => {
  it('hands out tokens of the asked size, never the same bytes twice, across pool refills', () => {
    const tokens = Array.from({ length: 2000 }, () => Buffer.from(randomIds.token(8), 'base64url'));
    expect(tokens.every((token) => token.length === 8)).toBe(true);
    expect(new Set(tokens.map((token) => token.toString('hex'))).size).toBe(2000);
    expect(Buffer.from(randomIds.token(5000), 'base64url')).toHaveLength(5000);
  });
});
