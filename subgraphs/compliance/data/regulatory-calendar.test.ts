import { describe, expect, it } from 'vitest';
import { regulatoryCalendar } from './regulatory-calendar.js';

describe('the regulatory calendar', () => {
  it('holds 16 events over MiCA, SFDR, CSRD and the GENIUS Act, in date order, each dated and cited', () => {
    expect(regulatoryCalendar).toHaveLength(16);
    expect(new Set(regulatoryCalendar.map((event) => event.framework))).toEqual(new Set(['MiCA', 'SFDR', 'CSRD', 'GENIUS Act']));
    const dates = regulatoryCalendar.map((event) => event.effectiveDate);
    expect([...dates].sort()).toEqual(dates);
    for (const event of regulatoryCalendar) {
      expect(event.effectiveDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(event.citation.url).toMatch(/^https:\/\//);
      expect(event.summary.length).toBeGreaterThan(40);
      expect(event.railAlignment.length).toBeGreaterThan(20);
    }
  });

  it('takes each date from the milestone it names (GENIUS Act enactment, MiCA Titles III and IV)', () => {
    const find = (text: string) => regulatoryCalendar.find((event) => event.event.includes(text));
    expect(find('Reserve requirement enacted')).toMatchObject({ framework: 'GENIUS Act', effectiveDate: '2025-07-18', jurisdictions: ['US'] });
    expect(find('E-money token white paper')).toMatchObject({ framework: 'MiCA', effectiveDate: '2024-06-30' });
  });
});
