import { execFileSync } from 'node:child_process';
import { ROOT } from './processes.js';

/** docs/benchmarks.md: written whole by `npm run bench`, its "Soak" section by `npm run soak` (bench/soak/report.ts). */
export const REPORT_PATH = 'docs/benchmarks.md';
export const SOAK_HEADING = '## Soak';

function git(args: readonly string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

/** `git rev-parse --short HEAD`, `+dirty` when the tree has changes (this report aside). */
export function describeCommit(): string {
  const commit = git(['rev-parse', '--short', 'HEAD']) || 'unknown';
  const dirty = git(['status', '--porcelain', '--', '.', `:(exclude)${REPORT_PATH}`]) !== '';
  return `${commit}${dirty ? '+dirty' : ''}`;
}

/** The section under `heading` (to the next `## ` heading or the end), or undefined. */
function sectionBounds(markdown: string, heading: string): { start: number; end: number } | undefined {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) return undefined;
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return { start, end: next === -1 ? lines.length : next };
}

/** `markdown` with the section under `heading` replaced by `section` (whose first line is that heading), or `section` appended. */
export function replaceSection(markdown: string, heading: string, section: string): string {
  const lines = markdown.split('\n');
  const bounds = sectionBounds(markdown, heading);
  const body = section.trimEnd().split('\n');
  if (!bounds) return [...(lines.at(-1) === '' ? lines.slice(0, -1) : lines), '', ...body, ''].join('\n');
  return [...lines.slice(0, bounds.start), ...body, '', ...lines.slice(bounds.end)].join('\n').replace(/\n{3,}/g, '\n\n');
}

/** The section under `heading` of `markdown` (heading included), or undefined: what a rewrite of the rest keeps. */
export function sectionOf(markdown: string, heading: string): string | undefined {
  const bounds = sectionBounds(markdown, heading);
  return bounds && markdown.split('\n').slice(bounds.start, bounds.end).join('\n');
}
