import { randomBytes, randomUUID } from 'node:crypto';

/** Source of identifiers and nonces; tests pass a deterministic one. */
export interface IdSource {
  uuid(): string;
  /** URL-safe random token of `bytes` bytes. */
  token(bytes: number): string;
}

const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomPoolOffset = 0;

/**
 * `bytes` fresh random bytes, cut from a pool refilled 4 KB at a time (as Node's randomUUID
 * caches its entropy): one system call per few hundred nonces instead of one per nonce. No byte is
 * handed out twice.
 */
function randomSlice(bytes: number): Buffer {
  if (bytes > RANDOM_POOL_BYTES) return randomBytes(bytes);
  if (randomPoolOffset + bytes > randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomPoolOffset = 0;
  }
  const slice = randomPool.subarray(randomPoolOffset, randomPoolOffset + bytes);
  randomPoolOffset += bytes;
  return slice;
}

export const randomIds: IdSource = {
  uuid: () => randomUUID(),
  token: (bytes) => randomSlice(bytes).toString('base64url'),
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
