import type { FastifyBaseLogger } from 'fastify';
import { type ChildLoggerOptions, type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/** Paths that may carry secrets or personal data; pino replaces them before anything is written. */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-payment"]',
  'req.headers["x-internal-key"]',
  'req.headers["x-agent-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-payment"]',
  'headers["x-internal-key"]',
  'headers["x-agent-key"]',
  '*.privateKey',
  '*.apiKey',
  '*.secret',
];

const MAX_MESSAGE_LENGTH = 300;
/** An AppError wrapping an InfrastructureError wrapping a DrizzleQueryError wrapping the driver's error is 4. */
const MAX_CAUSE_DEPTH = 6;
const MAX_STACK_FRAMES = 8;
const MAX_AGGREGATED = 3;

/**
 * What a log line says about an error: its type, a short message, its code, its stack frames and
 * its cause chain (error.cause, and the errors of an AggregateError such as a refused connection
 * tried on several addresses), so the operator reads why, not only what (decision 0054).
 * 1. Drizzle puts the whole SQL text and every parameter in its message ("Failed query: ...
 *    params: ..."), up to hundreds of KB of customer data a line: that text is withheld.
 * 2. Driver errors carry the query and parameters as properties; only whitelisted fields are kept.
 * 3. The stack is kept as its frames only: its first line repeats the message, which for a
 *    failed query is the withheld SQL.
 * None of this reaches a client: error bodies are built from the catalog (platform/errors.ts).
 */
export function describeErrorForLog(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: truncate(String(error)) };
  const type = error.name !== 'Error' ? error.name : error.constructor.name;
  const described: Record<string, unknown> = { type, message: safeMessage(error.message) };
  const { code, errno, severity } = error as Error & { code?: unknown; errno?: unknown; severity?: unknown };
  if (typeof code === 'string' || typeof code === 'number') described.code = code;
  if (typeof errno === 'string' || typeof errno === 'number') described.errno = errno;
  if (typeof severity === 'string') described.severity = severity;
  const frames = stackFrames(error.stack);
  if (frames) described.stack = frames;
  if (depth >= MAX_CAUSE_DEPTH) return described;
  if (error.cause !== undefined) described.cause = describeErrorForLog(error.cause, depth + 1);
  if (error instanceof AggregateError && Array.isArray(error.errors)) {
    described.errors = error.errors.slice(0, MAX_AGGREGATED).map((member: unknown) => describeErrorForLog(member, depth + 1));
  }
  return described;
}

function stackFrames(stack: string | undefined): string | undefined {
  const frames = stack
    ?.split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_STACK_FRAMES);
  return frames?.length ? frames.map((frame) => frame.trim()).join('\n') : undefined;
}

function safeMessage(message: string): string {
  if (/^Failed query/.test(message)) return 'Failed query (SQL text and parameters withheld)';
  return truncate(message.split('\n')[0] ?? '');
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH)}…` : text;
}

export interface LogThrottleOptions {
  /** Lines with the same message allowed per window at warn level and above. */
  linesPerWindow: number;
  windowMs: number;
}

const DEFAULT_THROTTLE: LogThrottleOptions = { linesPerWindow: 20, windowMs: 10_000 };

/**
 * Under a storm (a database outage fails every request) the same warning or error would be written
 * thousands of times a second. Each message gets `linesPerWindow` lines per window; the rest are
 * counted and reported in one line when the window turns.
 */
function createThrottle(options: LogThrottleOptions, now: () => number) {
  const windows = new Map<string, { startedAt: number; count: number }>();
  return function admit(message: string): { write: boolean; suppressedBefore: number } {
    const at = now();
    const window = windows.get(message);
    if (!window || at - window.startedAt >= options.windowMs) {
      const suppressedBefore = window ? Math.max(0, window.count - options.linesPerWindow) : 0;
      windows.set(message, { startedAt: at, count: 1 });
      if (windows.size > 1000) windows.clear();
      return { write: true, suppressedBefore };
    }
    window.count += 1;
    return { write: window.count <= options.linesPerWindow, suppressedBefore: 0 };
  };
}

export interface LoggerOptions {
  logLevel: string;
  throttle?: LogThrottleOptions;
  /** Where lines go (default stdout); the MCP stdio command sends them to stderr. */
  destination?: DestinationStream;
  now?: () => number;
}

const WARN_LEVEL = 40;

export function createLogger(options: LoggerOptions): Logger {
  const admit = createThrottle(options.throttle ?? DEFAULT_THROTTLE, options.now ?? Date.now);
  return pino(
    {
      level: options.logLevel,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      serializers: { err: describeErrorForLog, error: describeErrorForLog },
      hooks: {
        logMethod(args, method, level) {
          if (level < WARN_LEVEL) return method.apply(this, args);
          const message = args.find((argument): argument is string => typeof argument === 'string') ?? '(no message)';
          const { write, suppressedBefore } = admit(message);
          if (suppressedBefore > 0) method.call(this, `${suppressedBefore} more lines like this were suppressed: ${message}`);
          if (write) method.apply(this, args);
        },
      },
    },
    options.destination,
  );
}

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's child logger, made by pino on the request's first line (decision 0094): Fastify
 * makes one for every request (its bindings serialised, its redaction set up), and most requests
 * never log, so that cost a cached GET about a tenth of its time. The lines are the same.
 */
class LazyChildLogger {
  readonly #parent: Logger;
  readonly #bindings: Record<string, unknown>;
  readonly #options: Record<string, unknown>;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Record<string, unknown>, options: Record<string, unknown>) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #made(): Logger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? (this.#options.level as string | undefined) ?? this.#parent.level;
  }

  set level(level: string) {
    this.#made().level = level;
  }

  #log(method: LogMethod, args: unknown[]): void {
    // A line below the level makes no logger: the parent's level is the child's unless the route set its own.
    if (!this.#child && this.#options.level === undefined && method !== 'silent' && !this.#parent.isLevelEnabled(method)) return;
    (this.#made()[method] as (...values: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(...args: unknown[]): void {
    this.#log('silent', args);
  }
  isLevelEnabled(level: string): boolean {
    return this.#made().isLevelEnabled(level);
  }
  bindings(): Record<string, unknown> {
    return this.#made().bindings();
  }
  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): Logger {
    return this.#made().child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: the request's logger, made on its first use. Fastify's loggers here are pino's (createLogger). */
export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Record<string, unknown>, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(parent as Logger, bindings, options as Record<string, unknown>) as unknown as FastifyBaseLogger;
}
