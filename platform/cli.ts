import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/**
 * The command line of every CLI of the project (decision 0059): `--help` (or `-h`) prints the
 * usage on stdout and exits 0; an unknown flag, a flag without its value or a positional argument
 * the CLI does not take prints what was wrong and the usage on stderr and exits 2 (a usage error,
 * as POSIX tools do). Anything else is the CLI's own to check.
 */
export const USAGE_ERROR_EXIT_CODE = 2;

/** A command line the CLI cannot act on: printed with the usage, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CommandLine<Options extends ParseArgsOptionsConfig> {
  usage: string;
  options?: Options;
  /** Positional arguments taken (default none). */
  allowPositionals?: boolean;
  /** Default process.argv after the script. */
  args?: readonly string[];
}

/** Whether the arguments ask for help (before a `--` that ends the options). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** Prints a usage error (its message, then the usage) on stderr and exits 2. */
export function exitWithUsage(usage: string, error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(USAGE_ERROR_EXIT_CODE);
}

/** Parses the command line, or answers --help (exit 0) or a usage error (exit 2) and never returns. */
export function parseCommandLine<Options extends ParseArgsOptionsConfig>(spec: CommandLine<Options>) {
  const args = [...(spec.args ?? process.argv.slice(2))];
  if (asksForHelp(args)) {
    process.stdout.write(`${spec.usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ args, options: (spec.options ?? {}) as Options, allowPositionals: spec.allowPositionals ?? false, strict: true });
  } catch (error) {
    return exitWithUsage(spec.usage, error);
  }
}
