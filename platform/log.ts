import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/** Paths that may carry secrets or personal data; pino replaces them before anything is written. */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-payment"]',
  'req.headers["x-internal-key"]',
  'req.headers.cookie',
  '*.privateKey',
  '*.apiKey',
  '*.secret',
];

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, redact: { paths: redactedPaths, censor: '[redacted]' } });
}
