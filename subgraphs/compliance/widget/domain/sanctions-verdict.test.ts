import { describe, expect, it } from 'vitest';
import { sdnList } from '../../data/index.js';
import { buildSanctionsIndex, looksLikeWalletAddress, SANCTIONS_BLOCK_SCORE } from '../../domain/index.js';
import { screenForWidget } from './sanctions-verdict.js';

const sanctions = buildSanctionsIndex(sdnList().records);

describe('the sanctions widget verdict', () => {
  it('a digital-currency address on the SDN list is BLOCKED, an EVM address in any letter case', () => {
    // ofac/digital_currency_addresses.csv: 27307,ETH,0x098B716B8Aaf21512996dC57EB0615e2383E2f96
    for (const query of ['0x098B716B8Aaf21512996dC57EB0615e2383E2f96', '0x098b716b8aaf21512996dc57eb0615e2383e2f96']) {
      const screen = screenForWidget(query, sanctions);
      expect(screen).toMatchObject({ screenedAs: 'WALLET', verdict: 'BLOCKED' });
      expect(screen.signals).toEqual([expect.objectContaining({ code: 'SDN_DIGITAL_CURRENCY_ADDRESS', uid: 27307, currency: 'ETH', address: '0x098B716B8Aaf21512996dC57EB0615e2383E2f96' })]);
    }
    // A Bitcoin base58 address (25308,XBT,12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h) is matched exactly: case is meaning there.
    expect(screenForWidget('12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h', sanctions).verdict).toBe('BLOCKED');
    expect(screenForWidget('12qtd5bfwrsdnsazy76uve1xycgntojh9h', sanctions)).toEqual({ query: '12qtd5bfwrsdnsazy76uve1xycgntojh9h', screenedAs: 'WALLET', verdict: 'APPROVED', signals: [] });
  });

  it('an address not on the list is APPROVED without name screening', () => {
    expect(screenForWidget('0x0000000000000000000000000000000000000001', sanctions)).toEqual({
      query: '0x0000000000000000000000000000000000000001',
      screenedAs: 'WALLET',
      verdict: 'APPROVED',
      signals: [],
    });
  });

  it('an SDN name scoring 0.95 or more is BLOCKED', () => {
    const screen = screenForWidget('VTB Capital Holdings Closed Joint Stock Company', sanctions);
    expect(screen.verdict).toBe('BLOCKED');
    expect(screen.signals[0]).toMatchObject({
      code: 'SDN_NAME_MATCH',
      uid: 18729,
      sdnName: 'VTB CAPITAL HOLDINGS CLOSED JOINT STOCK COMPANY',
      programs: ['UKRAINE-EO13662', 'RUSSIA-EO14024'],
      score: 1,
    });
  });

  it('a match from 0.70 to under 0.95 is FLAGGED for review (Roni Trading against the alias RONIN TRADING, 0.942)', () => {
    const screen = screenForWidget('Roni Trading LLC', sanctions);
    expect(screen.verdict).toBe('FLAGGED');
    expect(screen.signals[0]).toMatchObject({ code: 'SDN_NAME_POTENTIAL_MATCH', uid: 42978, sdnName: 'RONIN MANAGEMENT B.V.', matchedName: 'RONIN TRADING', matchedAs: 'aka' });
    expect(screen.signals.every((s) => s.code === 'SDN_NAME_POTENTIAL_MATCH' && s.score >= 0.7 && s.score < SANCTIONS_BLOCK_SCORE)).toBe(true);
  });

  it('a name far from the list is APPROVED', () => {
    expect(screenForWidget('Maria Cantwell', sanctions)).toEqual({ query: 'Maria Cantwell', screenedAs: 'NAME', verdict: 'APPROVED', signals: [] });
  });

  it.each([
    ['0x098B716B8Aaf21512996dC57EB0615e2383E2f96', true],
    ['bc1qa5wkgaew2dkv56kfvj49j0av5nml45x9ek9hz6', true],
    ['TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', true],
    ['AL QAIDA', false],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZ', false], // no digit: a word, screened as a name
    ['Shell plc 2024', false],
  ])('looksLikeWalletAddress(%s) is %s', (query, expected) => {
    expect(looksLikeWalletAddress(query)).toBe(expected);
  });
});
