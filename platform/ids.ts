import { randomBytes, randomUUID } from 'node:crypto';

/** Source of identifiers and nonces; tests pass a deterministic one. */
export interface IdSource {
  uuid(): string;
  /** URL-safe random token of `bytes` bytes. */
  token(bytes: number): string;
}

export const randomIds: IdSource = {
  uuid: () => randomUUID(),
  token: (bytes) => randomBytes(bytes).toString('base64url'),
};

/** Deterministic ids: a counter rendered in the usual formats. Test use only. */
export function sequentialIds(prefix = 0): IdSource {
  let counter = prefix;
  const next = () => (counter += 1);
  return {
    uuid: () => `00000000-0000-4000-8000-${next().toString(16).padStart(12, '0')}`,
    token: (bytes) => Buffer.alloc(bytes, next() % 256).toString('base64url'),
  };
}
