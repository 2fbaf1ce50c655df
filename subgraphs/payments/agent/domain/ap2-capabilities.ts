// GET {agent_url}/.well-known/ap2.json (Document 2 §4: "capability document", fields not shown):
// what the settlement agent accepts as an AP2 verifier, built from data/ap2-capabilities.json and the
// configured trusted issuers. Shaped after AP2's own notions: the A2A AgentCard extension (uri,
// params.roles), the Payment Mandate types (vct), SD-JWT with ES256, the constraint types and their
// evaluation, and the action-authorization errors. docs/decisions/0023-settlement-agent-mandates.md.

/** data/ap2-capabilities.json. */
export interface Ap2CapabilityData {
  source: string;
  url: string;
  asOf: string;
  protocol: string;
  protocolVersion: string;
  extensionUri: string;
  roles: string[];
  mandateTypes: string[];
  credentialFormat: string;
  signingAlgorithms: string[];
  sdAlgorithms: string[];
  keyBinding: string;
  constraints: {
    evaluated: string[];
    notApplicable: string[];
    unresolved: string[];
    railDefined: Array<{ type: string; schema: Record<string, unknown>; evaluation: string }>;
    unknown: string;
  };
  matching: Record<string, string>;
  errors: { status: number; code: string; reasons: string };
  agentMandates: { header: string; verification: string; rules: string[]; onViolation: string; onRevoked: string };
}

export interface Ap2CapabilityDocument {
  protocol: string;
  protocolVersion: string;
  /** The AgentCard extension entry an A2A agent card would carry for AP2. */
  extension: { uri: string; description: string; required: boolean; params: { roles: string[] } };
  mandates: { types: string[]; format: string; signingAlgorithms: string[]; sdAlgorithms: string[]; keyBinding: string };
  trustedIssuers: { policy: 'allowlist'; count: number; issuers: string[] };
  constraints: Ap2CapabilityData['constraints'];
  matching: Record<string, string>;
  errors: Ap2CapabilityData['errors'];
  agentMandates: Ap2CapabilityData['agentMandates'];
  endpoints: { settle: string; capabilities: string };
  provenance: { source: string; url: string; asOf: string };
}

/**
 * The capability document:
 * 1. the issuers are listed by id only (their keys are configuration, not discovery), sorted, so
 *    a wallet can tell before signing whether its mandates will be accepted;
 * 2. endpoints are absolute, from the agent's public base URL;
 * 3. everything else is the shipped data, copied so the caller cannot alter it.
 */
export function buildAp2Capabilities(data: Ap2CapabilityData, options: { agentUrl: string; trustedIssuers: Iterable<string> }): Ap2CapabilityDocument {
  const issuers = [...options.trustedIssuers].sort();
  const base = options.agentUrl.replace(/\/+$/, '');
  return {
    protocol: data.protocol,
    protocolVersion: data.protocolVersion,
    extension: { uri: data.extensionUri, description: 'Settles stablecoin payments authorised by AP2 payment mandates (SD-JWT, ES256).', required: false, params: { roles: [...data.roles] } },
    mandates: { types: [...data.mandateTypes], format: data.credentialFormat, signingAlgorithms: [...data.signingAlgorithms], sdAlgorithms: [...data.sdAlgorithms], keyBinding: data.keyBinding },
    trustedIssuers: { policy: 'allowlist', count: issuers.length, issuers },
    constraints: structuredClone(data.constraints),
    matching: { ...data.matching },
    errors: { ...data.errors },
    agentMandates: { ...data.agentMandates, rules: [...data.agentMandates.rules] },
    endpoints: { settle: `${base}/settle`, capabilities: `${base}/.well-known/ap2.json` },
    provenance: { source: data.source, url: data.url, asOf: data.asOf },
  };
}
