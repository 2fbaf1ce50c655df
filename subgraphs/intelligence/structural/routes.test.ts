import { GraphQLNonNull, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeShapeDisagreements } from '../../../platform/shape-check.js';
import { buildFederatedSchema, loadSubgraphTypeDefs } from '../../../platform/subgraph.js';
import type { TestServer } from '../../../test/helpers.js';
import { signalResponseSchema } from '../shared/envelope.js';
import { getSignal, querySignal, startSignalServer } from '../shared/testing.js';
import { resonanceSchema } from './resonance.js';
import { tectonicSchema } from './tectonic.js';

/**
 * The structural family through REST and GraphQL on the shipped snapshot, the clock at TEST_NOW
 * (2026-11-22): the documented bodies with their values, the framework's headers (the spec names no
 * extra header for these two), payment, and the GraphQL fields.
 */
let server: TestServer;
let key: string;
beforeAll(async () => {
  ({ server, key } = await startSignalServer());
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('GET /v1/intelligence/tectonic', () => {
  it('answers 402 without payment', async () => {
    const { status, body } = await getSignal(server, '/v1/intelligence/tectonic');
    expect(status).toBe(402);
    expect(body.accepts[0]).toMatchObject({ maxAmountRequired: '750000' });
  });

  it('answers the 21 fault lines, their summary and the rupture sequence', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/tectonic', key);
    expect(status).toBe(200);
    expect(headers['x-rail-generated']).toBe(body.generatedAt);
    expect(headers['x-rail-cache-hit']).toBe(String(body.cacheHit));
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['summary', 'faultLines', 'ruptureSequence', 'synthesis', 'generatedAt']));
    expect(body.summary).toEqual(SNAPSHOT.tectonicSummary);
    expect(body.faultLines).toHaveLength(21);
    const debt = body.faultLines.find((line: { node: { id: string } }) => line.node.id === 'fiscal.debt_supercycle');
    expect(debt).toEqual(SNAPSHOT.debtSupercycle);
    expect(body.ruptureSequence[0]).toEqual(SNAPSHOT.firstRupture);
    expect(body.synthesis).toMatch(/^BUILDING: average stress /);
    expect(body.dataQuality).toBe('PARTIAL');
    expect(body.missingInputs).toHaveLength(14);
    expect(body.inputs.map((input: { id: string }) => input.id)).toContain('armstrong_mckay_2022_tipping_points');
  });

  it('answers the GraphQL field with the same figures', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ tectonic { summary { byStatus { RUPTURED CRITICAL ELEVATED BUILDING STABLE } avgStress mostUrgent regime } faultLines { node { id domain baselineStress accumulationRate threshold } currentStress yearsToRupture status transferredFrom } ruptureSequence { nodeId yearsToRupture } dataQuality } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.tectonic.summary).toEqual(SNAPSHOT.tectonicSummary);
    expect(data?.tectonic.faultLines).toHaveLength(21);
    expect(data?.tectonic.ruptureSequence[0]).toEqual({ nodeId: SNAPSHOT.firstRupture.nodeId, yearsToRupture: SNAPSHOT.firstRupture.yearsToRupture });
  });
});

describe('GET /v1/intelligence/resonance', () => {
  it('answers 402 without payment', async () => {
    const { status, body } = await getSignal(server, '/v1/intelligence/resonance');
    expect(status).toBe(402);
    expect(body.accepts[0]).toMatchObject({ maxAmountRequired: '750000' });
  });

  it('answers the summary, clusters and approaching alignments of the phased cycles', async () => {
    const { status, body, headers } = await getSignal(server, '/v1/intelligence/resonance', key);
    expect(status).toBe(200);
    expect(headers['x-rail-generated']).toBe(body.generatedAt);
    expect(headers['x-rail-cache-hit']).toBe(String(body.cacheHit));
    expect(body.summary).toEqual(SNAPSHOT.resonanceSummary);
    expect(body.clusters[0]).toEqual(SNAPSHOT.firstCluster);
    expect(body.approachingAlignment[0]).toEqual(SNAPSHOT.firstAlignment);
    expect(body.synthesis).toMatch(new RegExp(`^${SNAPSHOT.resonanceSummary.regime}: system resonance score`));
    expect(body.dataQuality).toBe('PARTIAL');
    expect(body.missingInputs).toHaveLength(10);
  });

  it('answers a second call from the cache', async () => {
    const { body, headers } = await getSignal(server, '/v1/intelligence/resonance', key);
    expect(body.cacheHit).toBe(true);
    expect(headers['x-rail-cache-hit']).toBe('true');
  });

  it('answers the GraphQL field with the same figures', async () => {
    const { data, errors } = await querySignal(
      server,
      '{ resonance { summary { systemResonanceScore regime resonantPairs clusters criticalClusters approachingAlignment } clusters { id signals labels domains avgPhaseDiff combinedAmplitude amplificationFactor historicalAnalogs dangerLevel } approachingAlignment { signalA signalB currentDiff quartersToAlignment mechanism } missingInputs } }',
      key,
    );
    expect(errors).toBeUndefined();
    expect(data?.resonance.summary).toEqual(SNAPSHOT.resonanceSummary);
    expect(data?.resonance.clusters[0]).toEqual(SNAPSHOT.firstCluster);
    expect(data?.resonance.approachingAlignment[0]).toEqual(SNAPSHOT.firstAlignment);
    expect(data?.resonance.missingInputs).toHaveLength(10);
  });
});

describe('each structural answer is one shape in REST and GraphQL', () => {
  const schema = buildFederatedSchema(loadSubgraphTypeDefs('intelligence'), {});
  const bodies: Array<[string, z.ZodObject<z.ZodRawShape>]> = [
    ['Tectonic', tectonicSchema],
    ['Resonance', resonanceSchema],
  ];
  it.each(bodies)('%s', (typeName, body) => {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`${typeName} is not an object type`);
    expect(describeShapeDisagreements(signalResponseSchema(body), new GraphQLNonNull(type))).toEqual([]);
  });
});

/** The figures of the shipped snapshot at TEST_NOW. */
const SNAPSHOT = {
  tectonicSummary: {
    byStatus: { RUPTURED: 0, CRITICAL: 0, ELEVATED: 6, BUILDING: 12, STABLE: 3 },
    avgStress: 51,
    mostUrgent: ['Structural labour shortage', 'Global demographic power imbalance', 'Digital infrastructure concentration'],
    regime: 'BUILDING',
  },
  debtSupercycle: {
    node: { id: 'fiscal.debt_supercycle', label: 'Global debt supercycle', domain: 'fiscal', baselineStress: 38.4, accumulationRate: 0.68, threshold: 85 },
    currentStress: 46,
    yearsToRupture: 57.4,
    status: 'BUILDING',
    transferredFrom: ['demographic.pension_solvency'],
  },
  firstRupture: { nodeId: 'demographic.labour_shortage', label: 'Structural labour shortage', domain: 'demographic', yearsToRupture: 21.6 },
  resonanceSummary: { systemResonanceScore: 43.1, regime: 'ELEVATED_RESONANCE', resonantPairs: 19, clusters: 5, criticalClusters: 1, approachingAlignment: 16 },
  firstCluster: {
    id: 'cluster-1',
    signals: ['financial.credit_cycle', 'financial.volatility_regime', 'economic.inflation', 'climate.enso', 'commodity.oil'],
    labels: ['Credit cycle', 'Volatility regime', 'Inflation cycle', 'ENSO', 'Oil cycle'],
    domains: ['financial', 'economic', 'climate', 'commodity'],
    avgPhaseDiff: 14.4,
    combinedAmplitude: 5.95,
    amplificationFactor: 2.09,
    historicalAnalogs: [],
    dangerLevel: 'CRITICAL',
  },
  firstAlignment: {
    signalA: 'economic.fiscal_impulse',
    signalB: 'climate.arctic_amplification',
    currentDiff: 33.2,
    quartersToAlignment: 1.1,
    mechanism: 'Fiscal impulse (public borrowing) and Arctic amplification (mid-latitude weather extremes): 33 degrees apart, closing 29.1 degrees a quarter',
  },
};
