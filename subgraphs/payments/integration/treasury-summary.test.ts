import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../platform/db.js';
import { insertFixturePayments, paymentsOf } from '../../../test/fixtures/treasury-payments.js';
import { openTestPglite, startTestServer, type TestServer } from '../../../test/helpers.js';

const PATH = '/integration/treasury-summary';
const OCTOBER = new Date('2026-10-05T09:00:00.000Z');
const INSTITUTIONS = ['bank-alpha', 'bank-bravo', 'bank-charlie'];

let database: DatabaseHandle;
let server: TestServer;
let internal: Record<string, string>;
beforeAll(async () => {
  database = await openTestPglite();
  server = await startTestServer({ subgraphs: ['payments'], database });
  internal = { 'x-internal-key': server.platform!.access.internalKey! };
  await insertFixturePayments(database.db, [
    // EUR: 3 institutions x 4 settled, 100 EUR at 1.1 (110 USD each), two minutes to settle.
    ...INSTITUTIONS.flatMap((institution) => paymentsOf(institution, 4, { currency: 'EUR', status: 'SETTLED', amount: '100', exchangeRate: '1.1', settleSeconds: 120 }, OCTOBER)),
    // GBP: 4 + 4 + 5 settled, 80 GBP at 1.25 (100 USD each).
    ...INSTITUTIONS.flatMap((institution, index) =>
      paymentsOf(institution, index === 2 ? 5 : 4, { currency: 'GBP', status: 'SETTLED', amount: '80', exchangeRate: '1.25', settleSeconds: 120 }, OCTOBER),
    ),
    // USD: one institution alone, 3 settled of 50 USD: its corridor must not show.
    ...paymentsOf('bank-alpha', 3, { currency: 'USD', status: 'SETTLED', amount: '50', exchangeRate: '1', settleSeconds: 120 }, OCTOBER),
    // November: outside the month asked for.
    ...paymentsOf('bank-bravo', 20, { currency: 'EUR', status: 'FAILED', amount: '1', exchangeRate: '1' }, new Date('2026-11-02T00:00:00.000Z')),
  ]);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

const get = async (url: string, headers: Record<string, string> = internal) => {
  const response = await server.app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.json<Record<string, any>>(), text: response.body };
};

describe('GET /integration/treasury-summary', () => {
  it("answers the month in aggregate: 28 payments, 12 x 110 + 13 x 100 + 3 x 50 = 2770 USD settled, two minutes' settlement", async () => {
    const { status, body } = await get(`${PATH}?period=2026-10`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ period: '2026-10', from: '2026-10-01T00:00:00.000Z', to: '2026-11-01T00:00:00.000Z' });
    expect(body.settlement).toEqual({ payments: 28, settled: 28, blocked: 0, failed: 0, pending: 0, settledVolumeUsd: '2770.00', meanSecondsToSettle: 120 });
  });

  it('shows GBP (13 payments from 3 institutions, 1300 USD); USD (one institution) is withheld, and EUR with it, since the month minus GBP minus EUR would show USD', async () => {
    const { body } = await get(`${PATH}?period=2026-10`);
    expect(body.corridors).toEqual([{ corridor: 'GBP/USDC', payments: 13, settled: 13, settlementRatePct: 100, settledVolumeUsd: '1300.00', meanSecondsToSettle: 120 }]);
    expect(body.withheldCorridors).toBe(2);
    expect(body.disclosure).toMatchObject({ minimumCount: 10, minimumContributors: 3, maxDominantSharePct: 75 });
  });

  it('a stranger learns no institution: no identifier of any payment is in the answer', async () => {
    const { text } = await get(`${PATH}?period=2026-10`);
    for (const secret of [...INSTITUTIONS, 'FIXTURE-', 'rp_fixture', '2138001KPMR6PD83HC08', '0x0000000000', 'USD/USDC', '150.00']) expect(text).not.toContain(secret);
  });

  it('is internal: 401 without X-Internal-Key or with another, before the query is read', async () => {
    for (const headers of [{}, { 'x-internal-key': 'not-the-key-0123456789abcdef0123456789' }] as Array<Record<string, string>>) {
      const { status, body } = await get(`${PATH}?period=nonsense`, headers);
      expect(status).toBe(401);
      expect(body).toEqual({ error: expect.any(String), code: 'GEN_ERR_UNAUTHORIZED' });
    }
  });

  it.each(['', '?period=2026-13', '?period=2026-1', '?period=26-10', '?period=2026-10&extra=1'])('%s: 400 PAY_ERR_INVALID_REQUEST', async (query) => {
    const { status, body } = await get(`${PATH}${query}`);
    expect(status).toBe(400);
    expect(body.code).toBe('PAY_ERR_INVALID_REQUEST');
  });
});
