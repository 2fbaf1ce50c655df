import { z } from 'zod';

/** Longest company name or LEI the entity ESG widget reads. */
export const MAX_QUERY = 200;

/** GET /esg/widget/esg?q=: a company name or an LEI (checked by the route, which answers an HTML page either way). */
export const esgWidgetQuery = z.object({ q: z.string().max(MAX_QUERY).optional() });
