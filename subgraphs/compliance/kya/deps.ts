// What the know-your-agent functions read: the service's dependencies, and what is derived from
// them once when the service is made (the id source, the credential key).

import { createHmac } from 'node:crypto';
import type { RateLimitStore } from '../../../platform/access/rate-limit.js';
import type { Clock } from '../../../platform/clock.js';
import type { CredentialIssuer } from '../../../platform/credentials.js';
import type { Idempotency } from '../../../platform/idempotency.js';
import { type IdSource, randomIds } from '../../../platform/ids.js';
import type { LeiRegistry } from '../shared/lei-registry.js';
import type { KyaStore } from './store.js';

export interface KyaServiceDeps {
  clock: Clock;
  store: KyaStore;
  leiRegistry: LeiRegistry;
  /** Signs the verifiable credentials; its DID names the agents' DIDs (`<issuer DID>:agents:<agentId>`). */
  issuer: CredentialIssuer;
  /** Secret of the HMAC `credential.signature` (a key of its own is derived from it). */
  hmacKey: string;
  ids?: IdSource;
  /** The API keys' rate-limit store: an agent's key has its per-minute limit there (decision 0048). */
  rateLimits: RateLimitStore;
  /** Idempotency-Key of POST /agent/mandate (decision 0048). */
  idempotency: Idempotency;
  /** INTERNAL_KEY: the settlement agent (payments) checks an agent's key through POST /agent/:id/authorize. */
  internalKey: string | undefined;
}

/** The dependencies as the functions of kya/ read them. */
export interface Kya extends KyaServiceDeps {
  ids: IdSource;
  /** The key of the HMAC credential signature, derived from hmacKey. */
  credentialKey: Buffer;
}

/** Signed text is bound to its purpose: this key signs agent credentials and nothing else. */
const CREDENTIAL_KEY_LABEL = 'srg/kya-credential/v1';

export function kyaOf(deps: KyaServiceDeps): Kya {
  return { ...deps, ids: deps.ids ?? randomIds, credentialKey: createHmac('sha256', deps.hmacKey).update(CREDENTIAL_KEY_LABEL).digest() };
}
