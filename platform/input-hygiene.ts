/**
 * The one rule for every string a caller sends (DESIGN.md §6, decision 0053): valid Unicode
 * without NUL. PostgreSQL's text refuses U+0000 and the UTF-8 encoder cannot write an unpaired
 * surrogate, so either would reach the database and come back as a 503; and JSON.parse itself
 * makes both from the escapes "\u0000" and "\ud800", so the rule runs on parsed values.
 *
 * The REST hook (platform/http.ts), the GraphQL guard (platform/graphql-guard.ts) and the MCP
 * guard (platform/mcp-hygiene.ts) all call findInputProblem; only the answer's shape differs.
 */

import { unreachable } from './errors.js';

/** How deep and how large one input may be; the walk stops at the first value past either. */
export interface InputLimits {
  /** Nesting of arrays and objects; the deepest documented input (a pain.001 document) is 10. */
  maxDepth: number;
  /** Strings, numbers, booleans, nulls, objects and arrays counted together; a pain.001 document of one transaction is about 150. */
  maxValues: number;
}

const INPUT_LIMITS: InputLimits = { maxDepth: 32, maxValues: 20_000 };

export type InputProblem =
  | { kind: 'nul'; field: string }
  | { kind: 'surrogate'; field: string }
  | { kind: 'nul-in-key'; field: string }
  | { kind: 'surrogate-in-key'; field: string }
  | { kind: 'too-deep'; field: string; limit: number }
  | { kind: 'too-large'; field: string; limit: number };

/** NUL or an unpaired surrogate, or neither. */
function textFault(text: string): 'nul' | 'surrogate' | undefined {
  if (text.includes('\u0000')) return 'nul';
  return text.isWellFormed() ? undefined : 'surrogate';
}

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
  depth: number;
}

/** `root.a.0.b` from the chain of visits (built only when a problem is found). */
function fieldOf(visit: Visit | undefined, root: string): string {
  const keys: string[] = [];
  for (let at = visit; at?.key !== undefined; at = at.parent) keys.push(String(at.key));
  return [root, ...keys.reverse()].filter((part) => part !== '').join('.');
}

/**
 * The first problem in `value` (a parsed JSON value, a query string, a GraphQL variables object),
 * or undefined. An explicit stack, not recursion: a 5,000-deep array is refused at `maxDepth`
 * without the call stack noticing, and at most `maxValues` values are looked at.
 */
export function findInputProblem(value: unknown, root: string, limits: InputLimits = INPUT_LIMITS): InputProblem | undefined {
  const stack: Visit[] = [{ value, key: undefined, parent: undefined, depth: 0 }];
  let counted = 0;
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    counted += 1;
    if (counted > limits.maxValues) return { kind: 'too-large', field: root, limit: limits.maxValues };
    const current = visit.value;
    if (typeof current === 'string') {
      const fault = textFault(current);
      if (fault) return { kind: fault, field: fieldOf(visit, root) };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (visit.depth >= limits.maxDepth) return { kind: 'too-deep', field: fieldOf(visit, root), limit: limits.maxDepth };
    const depth = visit.depth + 1;
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], key: index, parent: visit, depth });
      continue;
    }
    if (ArrayBuffer.isView(current)) continue;
    const keys = Object.keys(current);
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index] as string;
      const fault = textFault(key);
      if (fault) return { kind: fault === 'nul' ? 'nul-in-key' : 'surrogate-in-key', field: fieldOf(visit, root) };
      stack.push({ value: (current as Record<string, unknown>)[key], key, parent: visit, depth });
    }
  }
  return undefined;
}

/** The problem as a sentence naming the field, for every front door's error message. */
export function describeInputProblem(problem: InputProblem): string {
  const at = problem.field !== '' ? `${problem.field}: ` : '';
  switch (problem.kind) {
    case 'nul':
      return `${at}must not contain NUL (U+0000)`;
    case 'surrogate':
      return `${at}must be valid Unicode (it holds an unpaired surrogate, U+D800 to U+DFFF)`;
    case 'nul-in-key':
      return `${at}a key must not contain NUL (U+0000)`;
    case 'surrogate-in-key':
      return `${at}a key must be valid Unicode (it holds an unpaired surrogate, U+D800 to U+DFFF)`;
    case 'too-deep':
      return `${at}nests deeper than ${problem.limit} levels`;
    case 'too-large':
      return `${at}holds more than ${problem.limit} values`;
    default:
      return unreachable(problem);
  }
}

/** Whether the problem is the input's size (depth or count) rather than its text. */
export function isSizeProblem(problem: InputProblem): boolean {
  return problem.kind === 'too-deep' || problem.kind === 'too-large';
}
