import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import butterflyJson from '../data/simulation/butterfly-network.json' with { type: 'json' };
import { contagionNetworkSchema, loadButterflyNetwork, loadContagionNetwork, shockNetworkSchema } from './catalogue.js';

const countBy = (values: string[]) => Object.fromEntries([...new Set(values)].map((value) => [value, values.filter((one) => one === value).length]));
const catalogueDoc = readFileSync(new URL('../../../docs/intelligence/network-catalogue.md', import.meta.url), 'utf8');

describe('the butterfly catalogue (Document 3 §4 POST /butterfly)', () => {
  const network = loadButterflyNetwork();

  it('has the 25 nodes in the 4 domains: climate 6, geopolitical 6, economic 6, commodity 7', () => {
    expect(network.nodes).toHaveLength(25);
    expect(countBy(network.nodes.map((node) => node.domain))).toEqual({ climate: 6, geopolitical: 6, economic: 6, commodity: 7 });
  });

  it("names the spec's example ids", () => {
    const ids = network.nodes.map((node) => node.id);
    expect(ids).toEqual(expect.arrayContaining(['geo.conflict', 'climate.drought', 'macro.rate_decision', 'commodity.oil', 'commodity.gas', 'macro.inflation']));
  });

  it('lets a shock leave every node', () => {
    const sources = new Set(network.edges.map((edge) => edge.from));
    for (const node of network.nodes) expect(sources.has(node.id), node.id).toBe(true);
  });
});

describe('the contagion catalogue (Document 3 §4 Contagion)', () => {
  const network = loadContagionNetwork();

  it('has the 30 nodes in the 6 domains', () => {
    expect(network.nodes).toHaveLength(30);
    expect(countBy(network.nodes.map((node) => node.domain))).toEqual({ financial: 7, real_economy: 5, commodity: 4, policy: 5, social: 4, infrastructure: 5 });
  });

  it('connects every node both ways', () => {
    for (const node of network.nodes) {
      expect(
        network.edges.some((edge) => edge.from === node.id),
        `${node.id} out`,
      ).toBe(true);
      expect(
        network.edges.some((edge) => edge.to === node.id),
        `${node.id} in`,
      ).toBe(true);
    }
  });
});

describe('catalogue checks at load', () => {
  const valid = structuredClone(butterflyJson);
  const problems = (mutate: (copy: typeof valid) => void) => {
    const copy = structuredClone(valid);
    mutate(copy);
    const result = shockNetworkSchema.safeParse(copy);
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('accepts the shipped catalogues', () => {
    expect(problems(() => {})).toEqual([]);
    expect(contagionNetworkSchema.safeParse(JSON.parse(readFileSync(new URL('../data/simulation/contagion-network.json', import.meta.url), 'utf8'))).success).toBe(true);
  });

  it('refuses a duplicate id, a wrong prefix, an edge to an unknown node, a loop and a weight that does not attenuate', () => {
    expect(problems((copy) => (copy.nodes[1]!.id = copy.nodes[0]!.id))).toContainEqual(expect.stringMatching(/^nodes\.1\.id: duplicate node id/));
    expect(problems((copy) => (copy.nodes[0]!.id = 'geo.drought'))).toContainEqual('nodes.0.id: must start with climate.');
    expect(problems((copy) => (copy.edges[0]!.to = 'climate.nowhere'))).toContainEqual('edges.0.to: unknown node climate.nowhere');
    expect(problems((copy) => (copy.edges[0]!.to = copy.edges[0]!.from))).toContainEqual('edges.0: an edge never loops to its own node');
    expect(problems((copy) => (copy.edges[0]!.weight = 1))).toHaveLength(1);
  });
});

describe('docs/intelligence/network-catalogue.md', () => {
  it('gives the reasoning of every edge class of both catalogues', () => {
    const classes = new Set([...loadButterflyNetwork().edges, ...loadContagionNetwork().edges].map((edge) => edge.class));
    for (const edgeClass of classes) expect(catalogueDoc, edgeClass).toContain(`\`${edgeClass}\``);
  });
});
