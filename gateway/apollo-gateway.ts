import { ApolloGateway, type GatewayConfig } from '@apollo/gateway';

/**
 * @apollo/gateway, without the anonymous usage metrics it sends to Apollo by default: constructed
 * without APOLLO_TELEMETRY_DISABLED, it starts an OpenTelemetry exporter to Apollo's endpoint and
 * probes the AWS, GCP, Azure and Alibaba metadata addresses (169.254.169.254) to describe the host.
 * The rail sends nothing off its machine that it was not configured to, so the switch is set here,
 * whatever the environment says, before every construction (the bench's baselines included).
 */
export function quietApolloGateway(config: GatewayConfig): ApolloGateway {
  process.env.APOLLO_TELEMETRY_DISABLED = 'true';
  return new ApolloGateway(config);
}
