// The sanctions widget's capability (GET {compliance_url}/widget/sanctions, decision 0018): what
// the page is for one request, over the SDN index and the list's as-of date it is given.

import { describeInputProblem, findInputProblem } from '../../../platform/input-hygiene.js';
import { listAge, type SanctionsIndex } from '../domain/index.js';
import { screenForWidget } from './domain/index.js';
import { MAX_WIDGET_QUERY_LENGTH, type WidgetPage } from './render.js';

export interface SanctionsWidgetDeps {
  /** The SDN index, built on first use (shippedUboData().sanctions). */
  sanctions: () => SanctionsIndex;
  /** As-of date of the SDN list, shown under the verdict. */
  listAsOf: () => string;
  /** The time of the answer: a list older than 30 days is flagged on the page. */
  now: () => Date;
}

/** What the page is for one request: the empty form, a refusal, or the verdict. Exported for the tests. */
export function widgetPageFor(rawQuery: unknown, deps: SanctionsWidgetDeps): { status: 200 | 400; page: WidgetPage } {
  const asOf = deps.listAsOf();
  const list = { asOf, stale: listAge(asOf, deps.now()).stale };
  if (rawQuery === undefined) return { status: 200, page: { list } };
  if (typeof rawQuery !== 'string') return { status: 400, page: { list, error: 'Give one query: q once, a wallet address or an entity name.' } };
  const problem = findInputProblem(rawQuery, 'q');
  if (problem) return { status: 400, page: { list, error: `The query is refused: ${describeInputProblem(problem)}.` } };
  const query = rawQuery.trim();
  if (query === '') return { status: 200, page: { list } };
  if (query.length > MAX_WIDGET_QUERY_LENGTH) {
    return { status: 400, page: { list, query: query.slice(0, MAX_WIDGET_QUERY_LENGTH), error: `The query is longer than ${MAX_WIDGET_QUERY_LENGTH} characters.` } };
  }
  return { status: 200, page: { list, query, screen: screenForWidget(query, deps.sanctions()) } };
}
