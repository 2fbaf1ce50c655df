import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../../../platform/errors.js';
import { ap2CapabilityData } from './data/ap2-capabilities.js';
import { AGENT_MANDATE_RULES, AP2_MANDATE_TYPES, AP2_SD_ALGORITHM, AP2_SIGNING_ALGORITHM, buildAp2Capabilities, RAIL_FEE_CAP_CONSTRAINT } from './domain/index.js';

describe('GET /.well-known/ap2.json capability document', () => {
  it('lists the trusted issuers by id (sorted, no keys) and absolute endpoints under the agent URL', () => {
    const document = buildAp2Capabilities(ap2CapabilityData(), { agentUrl: 'https://rail.example/agent/', trustedIssuers: ['https://wallet.b', 'https://wallet.a'] });
    expect(document.trustedIssuers).toEqual({ policy: 'allowlist', count: 2, issuers: ['https://wallet.a', 'https://wallet.b'] });
    expect(document.endpoints).toEqual({ settle: 'https://rail.example/agent/settle', capabilities: 'https://rail.example/agent/.well-known/ap2.json' });
    expect(document.extension).toMatchObject({ uri: 'https://github.com/google-agentic-commerce/ap2/v1', params: { roles: ['payment-processor'] } });
    expect(JSON.stringify(document)).not.toMatch(/"x"|"y"|"d"/);
  });

  it('says what the verifier enforces: the same types, algorithms, constraint, rules and error as the code', () => {
    const document = buildAp2Capabilities(ap2CapabilityData(), { agentUrl: 'https://rail.example/agent', trustedIssuers: [] });
    expect(document.mandates).toEqual({ types: [...AP2_MANDATE_TYPES], format: 'sd-jwt', signingAlgorithms: [AP2_SIGNING_ALGORITHM], sdAlgorithms: [AP2_SD_ALGORITHM], keyBinding: 'not-required' });
    expect(document.constraints.railDefined.map((constraint) => constraint.type)).toEqual([RAIL_FEE_CAP_CONSTRAINT]);
    expect(document.agentMandates.rules).toEqual([...AGENT_MANDATE_RULES]);
    expect(errorCatalog[document.errors.code as keyof typeof errorCatalog]?.status).toBe(document.errors.status);
    expect(document.trustedIssuers).toEqual({ policy: 'allowlist', count: 0, issuers: [] });
    expect(document.provenance).toEqual({ source: expect.stringContaining('google-agentic-commerce/AP2'), url: 'https://github.com/google-agentic-commerce/AP2', asOf: '2026-04-29' });
  });

  it('a built document is a copy: changing it leaves the shipped data alone', () => {
    const first = buildAp2Capabilities(ap2CapabilityData(), { agentUrl: 'https://rail.example/agent', trustedIssuers: [] });
    first.mandates.types.push('mandate.checkout.1');
    first.constraints.evaluated.length = 0;
    const second = buildAp2Capabilities(ap2CapabilityData(), { agentUrl: 'https://rail.example/agent', trustedIssuers: [] });
    expect(second.mandates.types).toEqual([...AP2_MANDATE_TYPES]);
    expect(second.constraints.evaluated.length).toBeGreaterThan(0);
  });
});
