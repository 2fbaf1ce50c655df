import { afterEach, describe, expect, it } from 'vitest';
import { quietApolloGateway } from './apollo-gateway.js';
import { readSupergraph } from './compose.js';

const configured = process.env.APOLLO_TELEMETRY_DISABLED;
afterEach(() => {
  if (configured === undefined) delete process.env.APOLLO_TELEMETRY_DISABLED;
  else process.env.APOLLO_TELEMETRY_DISABLED = configured;
});

describe('finding (issue 27): @apollo/gateway sent anonymous metrics to Apollo and probed cloud metadata addresses at every start', () => {
  it('the gateway the rail builds starts no exporter, whatever the environment says', async () => {
    process.env.APOLLO_TELEMETRY_DISABLED = 'false';
    const gateway = quietApolloGateway({ supergraphSdl: readSupergraph() });
    // With metrics on, the constructor registers the exporter's shutdown as its one thing to dispose.
    expect((gateway as unknown as { toDispose: unknown[] }).toDispose).toEqual([]);
    await gateway.stop();
  });
});
