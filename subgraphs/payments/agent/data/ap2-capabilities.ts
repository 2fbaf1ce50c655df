import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Ap2CapabilityData } from '../domain/index.js';

// data/ap2-capabilities.json, validated once on first read; a malformed file throws from the loader.

const text = z.string().min(1);
const ap2CapabilityDataSchema = z.strictObject({
  source: text,
  url: z.url(),
  asOf: z.iso.date(),
  protocol: text,
  protocolVersion: text,
  extensionUri: z.url(),
  roles: z.array(text).min(1),
  mandateTypes: z.array(text).min(1),
  credentialFormat: text,
  signingAlgorithms: z.array(text).min(1),
  sdAlgorithms: z.array(text).min(1),
  keyBinding: text,
  constraints: z.strictObject({
    evaluated: z.array(text),
    notApplicable: z.array(text),
    unresolved: z.array(text),
    railDefined: z.array(z.strictObject({ type: text, schema: z.record(z.string(), z.unknown()), evaluation: text })),
    unknown: text,
  }),
  matching: z.record(z.string(), text),
  errors: z.strictObject({ status: z.number().int(), code: text, reasons: text }),
  agentMandates: z.strictObject({ header: text, verification: text, rules: z.array(text), onViolation: text, onRevoked: text }),
}) satisfies z.ZodType<Ap2CapabilityData>;

let loaded: Ap2CapabilityData | undefined;

export function ap2CapabilityData(): Ap2CapabilityData {
  return (loaded ??= ap2CapabilityDataSchema.parse(JSON.parse(readFileSync(new URL('./ap2-capabilities.json', import.meta.url), 'utf8'))));
}
