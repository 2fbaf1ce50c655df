import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Paths that may carry secrets or personal data; pino replaces them before anything is written. */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-payment"]',
  'req.headers["x-internal-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-payment"]',
  'headers["x-internal-key"]',
  '*.privateKey',
  '*.apiKey',
  '*.secret',
];

const MAX_MESSAGE_LENGTH = 300;
const MAX_CAUSE_DEPTH = 4;

/**
 * What a log line says about an error: its type, a short message, its code, its cause chain.
 * 1. Drizzle puts the whole SQL text and every parameter in its message ("Failed query: ...
 *    params: ..."), up to hundreds of KB of customer data a line: that text is withheld.
 * 2. Driver errors carry the query and parameters as properties; only whitelisted fields are kept.
 * 3. The stack is kept for errors that are bugs (not for infrastructure failures, whose stack
 *    only names driver internals), so an operator can find the line.
 */
export function describeErrorForLog(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: truncate(String(error)) };
  const type = error.name !== 'Error' ? error.name : error.constructor.name;
  const described: Record<string, unknown> = { type, message: safeMessage(error.message) };
  const { code, errno, severity } = error as Error & { code?: unknown; errno?: unknown; severity?: unknown };
  if (typeof code === 'string' || typeof code === 'number') described.code = code;
  if (typeof errno === 'string' || typeof errno === 'number') described.errno = errno;
  if (typeof severity === 'string') described.severity = severity;
  if (!isInfrastructure(error) && error.stack) described.stack = error.stack.split('\n').slice(0, 8).join('\n');
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) described.cause = describeErrorForLog(error.cause, depth + 1);
  return described;
}

function isInfrastructure(error: Error): boolean {
  return ['InfrastructureError', 'DrizzleQueryError', 'PostgresError'].includes(error.name !== 'Error' ? error.name : error.constructor.name) || /^Failed query/.test(error.message);
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
