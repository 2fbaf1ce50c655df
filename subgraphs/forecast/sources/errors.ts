// The one error every live adapter throws: the HTTP layer turns it into 503 + Retry-After.

export type LiveSourceId = 'open-meteo' | 'eonet' | 'gdacs' | 'usdm' | 'fred';

/** What went wrong, so logs and metrics can tell a slow feed from a changed format. */
export type SourceFailureKind = 'timeout' | 'network' | 'http-status' | 'malformed-body';

/** Seconds a client is told to wait after a 503 caused by a live source (spec 7 and 8). */
export const LIVE_SOURCE_RETRY_AFTER_SECONDS = 60;

export class SourceUnavailableError extends Error {
  override readonly name = 'SourceUnavailableError';
  readonly source: LiveSourceId;
  readonly kind: SourceFailureKind;
  /** HTTP status when kind is 'http-status'. */
  readonly status: number | undefined;

  constructor(
    source: LiveSourceId,
    kind: SourceFailureKind,
    message: string,
    details: { cause?: unknown; status?: number } = {},
  ) {
    super(`${source}: ${message}`, { cause: details.cause });
    this.source = source;
    this.kind = kind;
    this.status = details.status;
  }
}

/** The error a parse step throws when a body does not have the documented shape. */
export function malformedBody(source: LiveSourceId, issue: string, cause?: unknown): SourceUnavailableError {
  return new SourceUnavailableError(source, 'malformed-body', `unexpected response format (${issue})`, { cause });
}
