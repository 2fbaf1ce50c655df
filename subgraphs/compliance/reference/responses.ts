import { z } from 'zod';

/** GET /compliance/reference-data: each reference dataset loaded in the database, with its provenance and digest. */
export const referenceDatasetSchema = z.object({
  dataset: z.string().describe('key of data/sources.json: ofacSdn, pepUsFederal, pepHeadsOfState, pepMeps, lei, fatf'),
  source: z.string(),
  url: z.string(),
  asOf: z.string().describe("the publisher's as-of date as the snapshot states it"),
  licence: z.string(),
  records: z.number().int().describe('primary records loaded: SDN entries, PEP records, LEI records, FATF list entries'),
  sha256: z.string().describe("digest over the dataset's files, its provenance and the import format (decision 0021)"),
  files: z.record(z.string(), z.string()).describe('SHA-256 of each shipped file, by path under subgraphs/compliance/data'),
  loadedAt: z.string().describe('ISO 8601'),
  inUse: z.boolean().describe('this process screens with this version: its shipped files have this sha256'),
});

export const referenceDataSchema = z.object({ datasets: z.array(referenceDatasetSchema) });

export type ReferenceDataResult = z.infer<typeof referenceDataSchema>;
