import { z } from 'zod';
import { type DataQuality, dataQualityOf, type InputUse, inputUse, type SignalAnswer } from '../domain/index.js';

/** What every signal answer carries besides its documented body: provenance, quality and (when served) cache state. */
export interface SignalProvenance {
  dataQuality: DataQuality;
  /** Date of the newest observation behind the answer (null when it read no series). */
  asOf: string | null;
  /** Some input is older than its publication rhythm allows (see inputs[].stale). */
  stale: boolean;
  inputs: InputUse[];
  missingInputs: string[];
}

export type KeptSignal<Body> = Body & SignalProvenance;

export type ServedSignal<Body> = KeptSignal<Body> & { generatedAt: string; cacheHit: boolean };

/** The answer as kept in the cache: the body, then where its figures come from. */
export function keptSignal<Body extends object>(answer: SignalAnswer<Body>, now: Date): KeptSignal<Body> {
  const today = now.toISOString().slice(0, 10);
  const inputs = answer.inputs.map((input) => inputUse(input, today));
  const asOf = inputs.reduce<string | null>((newest, input) => (newest === null || input.asOf > newest ? input.asOf : newest), null);
  return { ...answer.body, dataQuality: dataQualityOf(answer.inputs, answer.missing), asOf, stale: inputs.some((input) => input.stale), inputs, missingInputs: [...answer.missing] };
}

export const inputUseSchema = z.object({
  id: z.string(),
  title: z.string(),
  publisher: z.string(),
  url: z.string(),
  licence: z.string(),
  asOf: z.string().describe('date of the newest observation used'),
  live: z.boolean().describe('read from the publisher in this process, not the shipped snapshot'),
  stale: z.boolean(),
});

/** The envelope fields of every signal answer (decision 0062), appended to its documented body. */
export const signalEnvelopeShape = {
  generatedAt: z.string().describe('ISO 8601: when the answer was computed'),
  cacheHit: z.boolean().describe('served from the cache rather than computed for this call'),
  dataQuality: z.enum(['LIVE', 'PARTIAL', 'ESTIMATED']).describe('LIVE: every input read live; ESTIMATED: the shipped snapshot; PARTIAL: an input missing or some not live'),
  asOf: z.string().nullable().describe('date of the newest observation behind the answer'),
  stale: z.boolean(),
  inputs: z.array(inputUseSchema),
  missingInputs: z.array(z.string()).describe('inputs the method names that are not openly published; the answer was computed without them'),
};

export function signalResponseSchema<Shape extends z.ZodRawShape>(body: z.ZodObject<Shape>) {
  return body.extend(signalEnvelopeShape);
}
