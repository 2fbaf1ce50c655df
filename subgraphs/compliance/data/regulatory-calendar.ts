import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The regulatory calendar (Document 2: 16 events), joined with the dated milestones of
 * key_dates.json: each event's effective date and citation come from the milestone it names, so
 * no date is written twice.
 */
const milestonesSchema = z.object({
  meta: z.object({ description: z.string(), compiled_from: z.string() }),
  dates: z.array(
    z.object({
      regime: z.string(),
      instrument: z.string(),
      event: z.string(),
      date: z.iso.date(),
      citation: z.object({ url: z.url(), publisher: z.string() }),
    }),
  ),
});

const calendarSchema = z.object({
  events: z
    .array(
      z.object({
        framework: z.enum(['MiCA', 'SFDR', 'CSRD', 'GENIUS Act']),
        event: z.string(),
        milestone: z.number().int().nonnegative(),
        jurisdictions: z.array(z.string()),
        summary: z.string(),
        railAlignment: z.string(),
      }),
    )
    .length(16),
});

export interface RegulatoryEvent {
  framework: 'MiCA' | 'SFDR' | 'CSRD' | 'GENIUS Act';
  event: string;
  /** YYYY-MM-DD. */
  effectiveDate: string;
  jurisdictions: string[];
  summary: string;
  railAlignment: string;
  instrument: string;
  citation: { url: string; publisher: string };
}

const readJson = (name: string): unknown => JSON.parse(readFileSync(new URL(`./${name}`, import.meta.url), 'utf8'));

function loadRegulatoryCalendar(): RegulatoryEvent[] {
  const milestones = milestonesSchema.parse(readJson('key_dates.json')).dates;
  const { events } = calendarSchema.parse(readJson('regulatory-calendar.json'));
  const joined = events.map(({ milestone, ...event }) => {
    const dated = milestones[milestone];
    if (!dated || dated.regime !== event.framework) throw new Error(`regulatory-calendar.json: "${event.event}" names milestone ${milestone}, which is not a ${event.framework} date`);
    return { ...event, effectiveDate: dated.date, instrument: dated.instrument, citation: dated.citation };
  });
  return joined.sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate) || a.event.localeCompare(b.event));
}

/** The 16 events in effective-date order, read once. */
export const regulatoryCalendar: readonly RegulatoryEvent[] = loadRegulatoryCalendar();
