import { describe, expect, it } from 'vitest';
import { pepRecords } from '../../data/index.js';
import { PEP_MATCH_THRESHOLD } from '../../domain/index.js';
import { buildPepIndex } from './pep-screening.js';

const index = buildPepIndex(pepRecords());

describe('PEP screening', () => {
  it('indexes every record and its other names', () => {
    expect(index.size.records).toBe(617 + 423 + 701);
    expect(index.size.names).toBeGreaterThan(index.size.records);
  });

  it.each([
    ['Maria Cantwell', 'us-congress-C000127', 'US'],
    ['CANTWELL, Maria', 'us-congress-C000127', 'US'],
    ['Edi Rama', undefined, 'AL'],
    ['Andreas Schieder', undefined, 'AT'],
  ])('%s → %s (%s)', (query, id, country) => {
    const { matches } = index.screen(query);
    expect(matches[0]!.record.country).toBe(country);
    if (id) expect(matches[0]!.record.id).toBe(id);
    expect(matches[0]!.score).toBeGreaterThanOrEqual(PEP_MATCH_THRESHOLD);
  });

  it('matches at 0.60 by default and narrows by country and by office', () => {
    const { matches } = index.screen('Maria Cantwell', { country: 'us' });
    expect(matches.every((m) => m.record.country === 'US')).toBe(true);
    expect(index.screen('Maria Cantwell', { country: 'FR' }).matches).toEqual([]);
    expect(index.screen('Ilir Meta', { currentOnly: true }).matches.map((m) => m.record.name)).not.toContain('Ilir Meta');
    expect(index.screen('Ilir Meta').matches[0]!.record).toMatchObject({ name: 'Ilir Meta', current: false });
  });

  it('finds nothing for a name far from every PEP', () => {
    expect(index.screen('Zzyzx Qwerty').matches).toEqual([]);
  });
});
