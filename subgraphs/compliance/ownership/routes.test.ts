import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uboChainCache } from '../../../drizzle/schema.js';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { createHttpServer, httpRoutes, type HttpServer } from '../../../platform/http.js';
import { createLogger } from '../../../platform/log.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { leiCheckDigits, type LeiRecord } from '../domain/index.js';
import { COMPLIANCE_PREFIX, complianceErrorShape } from '../shared/error-shape.js';
import { uboRoutes } from './routes.js';
import { createUboService, shippedUboData, UBO_CACHE_TTL_MS, type UboData } from './service.js';
import { createUboStore } from './store.js';

const SHELL_CATALYSTS = '2138001KPMR6PD83HC08';
const EAGLE_TRUST = '549300Z97UQPIB27EY09';
const HOUR_MS = 3_600_000;
/** Valid check digits, not in the GLEIF snapshot. */
const ABSENT_LEI = `TESTNOTHERE0000000${leiCheckDigits('TESTNOTHERE0000000')}`;

/**
 * The shipped data plus two records made here (valid check digits, not GLEIF's): a subject whose
 * direct and ultimate parent carries the name of a real SDN entity (ent 18729), to reach BLOCKED.
 */
const BLOCKED_PARENT = `TESTSDNPARENT00000${leiCheckDigits('TESTSDNPARENT00000')}`;
const BLOCKED_SUBJECT = `TESTSDNCHILD000000${leiCheckDigits('TESTSDNCHILD000000')}`;
function testData(): UboData {
  const shipped = shippedUboData();
  const made = (lei: string, fields: Partial<LeiRecord>): LeiRecord => ({
    lei,
    legalName: lei,
    otherNames: [],
    status: 'ACTIVE',
    entityStatus: 'ACTIVE',
    registrationStatus: 'ISSUED',
    jurisdiction: 'GB',
    country: 'GB',
    directParent: null,
    ultimateParent: null,
    directParentLink: 'REPORTING_EXCEPTION',
    ultimateParentLink: 'REPORTING_EXCEPTION',
    directParentException: 'NATURAL_PERSONS',
    ultimateParentException: 'NATURAL_PERSONS',
    asOf: '2026-01-01',
    ...fields,
  });
  const extra = new Map([
    [BLOCKED_PARENT, made(BLOCKED_PARENT, { legalName: 'VTB Capital Holdings Closed Joint Stock Company', jurisdiction: 'RU', country: 'RU' })],
    [
      BLOCKED_SUBJECT,
      made(BLOCKED_SUBJECT, {
        legalName: 'Plain Widgets Trading Limited',
        directParent: BLOCKED_PARENT,
        ultimateParent: BLOCKED_PARENT,
        directParentLink: 'REPORTED',
        ultimateParentLink: 'REPORTED',
        directParentException: null,
        ultimateParentException: null,
      }),
    ],
  ]);
  return { ...shipped, findRecord: (lei) => extra.get(lei) ?? shipped.findRecord(lei) };
}

describe.each(testDatabases())('POST /compliance/compliance/ubo-chain on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let app: HttpServer;
  const clock = new ManualClock(TEST_NOW);

  beforeAll(async () => {
    handle = await testDatabase.open();
    const service = createUboService({ clock, store: createUboStore(handle.db), data: testData });
    app = createHttpServer({ logger: createLogger({ logLevel: 'silent' }), clock });
    await app.register(
      httpRoutes(async (scoped) => {
        scoped.errorShapes.register(complianceErrorShape);
        await scoped.register(uboRoutes(service));
      }),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await testDatabase.dispose(handle);
  });

  async function post(payload: unknown, raw = false) {
    const response = await app.inject({
      method: 'POST',
      url: `${COMPLIANCE_PREFIX}/compliance/ubo-chain`,
      headers: { 'content-type': 'application/json' },
      payload: raw ? (payload as string) : JSON.stringify(payload),
    });
    return { status: response.statusCode, body: response.json() };
  }
  const cachedRows = async (lei: string) => (await handle.db.select({ n: count() }).from(uboChainCache).where(eq(uboChainCache.lei, lei)))[0]!.n;

  it('Shell Catalysts & Technologies: CLEAR, Shell plc as ultimate parent, every field of the result', async () => {
    clock.set(TEST_NOW);
    const { status, body } = await post({ lei: SHELL_CATALYSTS });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      lei: SHELL_CATALYSTS,
      deep: false,
      result: 'CLEAR',
      reasons: [],
      chain: [
        {
          lei: SHELL_CATALYSTS,
          name: 'SHELL CATALYSTS & TECHNOLOGIES PTE. LTD.',
          role: 'SUBJECT',
          level: 0,
          jurisdiction: 'SG',
          leiStatus: 'ACTIVE',
          sanctions: { hit: false, bestScore: null, matches: [] },
        },
        { lei: '21380068P1DRHMJ8KU70', name: 'SHELL PLC', role: 'ULTIMATE_PARENT', level: 1, jurisdiction: 'GB', sanctions: { hit: false, bestScore: null, matches: [] } },
      ],
      sanctionsMatches: [],
      fatfAttestation: { beneficialOwnersIdentified: true, ownershipLevelsTraversed: 1, nodesScreened: 2, sanctionsStatus: 'NO_MATCH' },
      cachedAt: TEST_NOW,
      expiresAt: new Date(Date.parse(TEST_NOW) + UBO_CACHE_TTL_MS).toISOString(),
      fromCache: false,
      sources: { lei: { asOf: '2025-05-15' }, sanctions: { asOf: '2023-12-28', stale: true } },
    });
    expect(body.fatfAttestation.jurisdictionRisk.map((risk: { jurisdiction: string; fatfStatus: string }) => [risk.jurisdiction, risk.fatfStatus])).toEqual([
      ['SG', 'NOT_LISTED'],
      ['GB', 'NOT_LISTED'],
    ]);
    expect(body.fatfAttestation.note).toMatch(/natural-person beneficial owners are not in GLEIF/);
  });

  it('is cached 24 hours per (lei, deep): served from the table until then, computed again after', async () => {
    clock.set(TEST_NOW);
    const lei = '213800JCN6PSGDRLT915'; // METASWITCH NETWORKS LTD, owned by Microsoft Corporation
    const first = await post({ lei });
    expect(first.body).toMatchObject({ fromCache: false, cachedAt: TEST_NOW });
    clock.advance(UBO_CACHE_TTL_MS - 1);
    const second = await post({ lei: lei.toLowerCase() });
    expect(second.body).toEqual({ ...first.body, fromCache: true });
    clock.advance(1); // exactly 24 hours: no longer served
    const third = await post({ lei });
    const later = new Date(Date.parse(TEST_NOW) + UBO_CACHE_TTL_MS).toISOString();
    expect(third.body).toMatchObject({ fromCache: false, cachedAt: later, result: first.body.result, chain: first.body.chain });
    expect(await cachedRows(lei)).toBe(1); // replaced, not added
    clock.advance(HOUR_MS);
    expect((await post({ lei })).body).toMatchObject({ fromCache: true, cachedAt: later });
  });

  it('deep adds the intermediate parent (Citicorp LLC) and is cached apart from the shallow chain', async () => {
    clock.set(TEST_NOW);
    const shallow = await post({ lei: EAGLE_TRUST });
    const deep = await post({ lei: EAGLE_TRUST, deep: true });
    expect(shallow.body.chain.map((node: { role: string }) => node.role)).toEqual(['SUBJECT', 'DIRECT_PARENT', 'ULTIMATE_PARENT']);
    expect(deep.body.chain.map((node: { name: string; role: string }) => [node.name, node.role])).toEqual([
      ['The Eagle Tax-Exempt Trust Series 20170009', 'SUBJECT'],
      ['Citibank, National Association', 'DIRECT_PARENT'],
      ['Citicorp LLC', 'INTERMEDIATE_PARENT'],
      ['Citigroup Inc.', 'ULTIMATE_PARENT'],
    ]);
    expect([shallow.body.fromCache, deep.body.fromCache, deep.body.deep]).toEqual([false, false, true]);
    expect(await cachedRows(EAGLE_TRUST)).toBe(2);
    // Citigroup's former name "The Travelers Inc." scored 0.754 against TRANSSERVICE LLC (ent 19028) before
    // issue 21; a loose pair with no close distinctive word now counts half (decision 0055): CLEAR.
    expect(deep.body).toMatchObject({ result: 'CLEAR', reasons: [], sanctionsMatches: [] });
  });

  it('an SDN entity as parent: BLOCKED, the match named with its OFAC entry', async () => {
    const { status, body } = await post({ lei: BLOCKED_SUBJECT });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      result: 'BLOCKED',
      reasons: ['SANCTIONS_MATCH'],
      fatfAttestation: { sanctionsStatus: 'MATCH' },
    });
    // The best match first; weaker ones of the same node follow (VEB CAPITAL 0.72 ...).
    expect(body.sanctionsMatches[0]).toEqual({
      lei: BLOCKED_PARENT,
      role: 'ULTIMATE_PARENT',
      uid: 18729,
      name: 'VTB CAPITAL HOLDINGS CLOSED JOINT STOCK COMPANY',
      matchedName: 'VTB CAPITAL HOLDINGS CLOSED JOINT STOCK COMPANY',
      matchedAs: 'name',
      type: 'entity',
      programs: ['UKRAINE-EO13662', 'RUSSIA-EO14024'],
      screenedName: 'VTB Capital Holdings Closed Joint Stock Company',
      score: 1,
    });
    expect(body.sanctionsMatches.every((match: { lei: string; score: number }) => match.lei === BLOCKED_PARENT && match.score >= 0.7)).toBe(true);
  });

  it('an LEI with valid check digits that the snapshot does not hold: 404 CMP_ERR_LEI_NOT_FOUND, nothing cached', async () => {
    const { status, body } = await post({ lei: ABSENT_LEI });
    expect([status, body]).toEqual([404, { error: `No entity with LEI ${ABSENT_LEI} is in the LEI registry snapshot, so its ownership cannot be traced.`, code: 'CMP_ERR_LEI_NOT_FOUND' }]);
    expect(await cachedRows(ABSENT_LEI)).toBe(0);
  });

  it.each([
    ['wrong check digits', { lei: '2138001KPMR6PD83HC09' }, 'CMP_ERR_INVALID_LEI', '"2138001KPMR6PD83HC09" is not a valid LEI'],
    ['too short', { lei: '2138001KPMR6' }, 'CMP_ERR_INVALID_LEI', 'is not a valid LEI'],
    ['full-width digits', { lei: '２１３８００１ＫＰＭＲ６ＰＤ８３ＨＣ０８' }, 'CMP_ERR_INVALID_LEI', 'is not a valid LEI'],
    ['markup', { lei: '<script>alert(1)</script>' }, 'CMP_ERR_INVALID_LEI', 'is not a valid LEI'],
    ['a huge string', { lei: 'A'.repeat(100_000) }, 'CMP_ERR_INVALID_REQUEST', 'lei'],
    ['a number', { lei: 2138001 }, 'CMP_ERR_INVALID_REQUEST', 'lei'],
    ['no lei', { deep: true }, 'CMP_ERR_INVALID_REQUEST', 'lei'],
    ['deep as text', { lei: SHELL_CATALYSTS, deep: 'yes' }, 'CMP_ERR_INVALID_REQUEST', 'deep'],
    ['an unknown field', { lei: SHELL_CATALYSTS, depth: 3 }, 'CMP_ERR_INVALID_REQUEST', 'depth'],
    ['an array', [SHELL_CATALYSTS], 'CMP_ERR_INVALID_REQUEST', ''],
  ])('%s: 400', async (_label, payload, code, message) => {
    const { status, body } = await post(payload);
    expect(status).toBe(400);
    expect(body.code).toBe(code);
    expect(body.error).toContain(message);
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  });

  it('a __proto__ key written by hand in the JSON text is refused, and pollutes nothing', async () => {
    const { status, body } = await post(`{"lei":"${SHELL_CATALYSTS}","__proto__":{"deep":true,"polluted":1}}`, true);
    expect(status).toBe(400);
    expect(body.code).toMatch(/^(CMP_ERR_INVALID_REQUEST|GEN_ERR_BAD_REQUEST)$/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
