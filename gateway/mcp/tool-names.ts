import type { DocumentedOperation, HttpMethod } from '../../platform/capabilities.js';

/**
 * The name of a route's tool, a function of the route alone (decision 0080), so a name never
 * changes because another route came or went:
 * 1. the path's words joined by dots, each word's other characters as `_`: `/stability/fee-schedule`
 *    is `stability.fee_schedule`; a version segment (`v1`) and a word repeating the one before it
 *    (`/compliance/compliance/pep-screen`) are left out;
 * 2. a path parameter in the middle is left out (`/compliance/agent/:id/verify` is
 *    `compliance.agent.verify`); one at the end is `by_<name>` (`compliance.agent.by_id`), so
 *    `/agent/holds` and `/agent/holds/:holdId` stay two names;
 * 3. of the methods on one path, the first of GET, POST, PUT, PATCH, DELETE keeps the name and the
 *    others add theirs: `stability.quote` and `stability.quote.post`.
 * At most 64 characters of [A-Za-z0-9_.-]; deriveRouteTools refuses a duplicate.
 */

export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function pathToolName(route: string): string {
  const segments = route.split('/').filter(Boolean);
  const words: string[] = [];
  segments.forEach((segment, index) => {
    if (segment.startsWith(':')) {
      if (index === segments.length - 1) words.push(`by_${segment.slice(1).replace(/[^A-Za-z0-9]+/g, '_')}`);
      return;
    }
    if (/^v\d+$/.test(segment)) return;
    const word = segment.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
    if (word !== '' && words.at(-1) !== word) words.push(word);
  });
  return words.join('.');
}

/** The tool name of `operation`, given every operation the server documents (for the methods sharing its path). */
export function routeToolName(operation: Pick<DocumentedOperation, 'method' | 'route'>, all: ReadonlyArray<Pick<DocumentedOperation, 'method' | 'route'>>): string {
  const methods = new Set(all.filter((other) => other.route === operation.route).map((other) => other.method));
  const first = METHOD_ORDER.find((method) => methods.has(method));
  const base = pathToolName(operation.route);
  const name = first === undefined || first === operation.method ? base : `${base}.${operation.method.toLowerCase()}`;
  if (!TOOL_NAME_PATTERN.test(name)) throw new Error(`the tool name of ${operation.method} ${operation.route} (${name}) is not 1-64 characters of [A-Za-z0-9_.-]`);
  return name;
}
