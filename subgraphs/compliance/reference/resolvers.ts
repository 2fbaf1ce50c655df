import type { ReferenceDataService } from './service.js';

/** Query.referenceData: GET /compliance/reference-data through the same service. */
export function referenceDataResolvers(referenceData: ReferenceDataService) {
  return { Query: { referenceData: () => referenceData.datasets() } };
}
