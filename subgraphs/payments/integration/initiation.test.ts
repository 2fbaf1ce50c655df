import { randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { randomIds } from '../../../platform/ids.js';
import { createRequestContext } from '../../../platform/request-context.js';
import { ACTIVE_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { TEST_NOW } from '../../../test/helpers.js';
import { samplePaymentResult } from '../callbacks/testing.js';
import type { NativePayment } from '../domain/index.js';
import { EXTENSION_PLACE } from './domain/index.js';
import { createInitiation, MAX_REMEMBERED_TEXT_LENGTH } from './initiation.js';
import { type InitiateOptions, type Payments, type PaymentsService, requestDigestOf } from './service.js';
import { freshWallet, type IntegrationHarness, LEI, pain001Document, startIntegrationHarness } from './testing.js';

// pain.001 in, pacs.002 out, and the batch path, through the all-in-one server (compliance, fees and
// payments in one process) on the worker's shared PGlite and the embedded rail. The fixture document
// (2 PmtInf, 5 transactions) is sent with fresh references and fresh creditor wallets per test.

const TX_HASH = /^0x[0-9a-f]{64}$/;

let harness: IntegrationHarness;
let bearer: Record<string, string>;

beforeAll(async () => {
  harness = await startIntegrationHarness('payments-iso-test-admin-key-0123456789abcdef');
  bearer = harness.bearer;
}, 120_000);
afterAll(async () => {
  await harness?.close();
});

const suffix = () => randomBytes(3).toString('hex');
const nowSeconds = () => Math.floor(harness.server.clock.now().getTime() / 1000);
const call: IntegrationHarness['call'] = (...args) => harness.call(...args);
const balanceOf = (address: Address) => harness.balanceOf(address);
const treasury = () => harness.treasury();

/** Whether payments has an FX rate for a currency today (USD at par; others once fees serves them). */
async function hasRate(currency: string): Promise<boolean> {
  const { status } = await call('GET', `/integration/rates/${currency}`);
  expect([200, 404]).toContain(status);
  return status === 200;
}

interface Expected {
  tmsReference: string;
  endToEndId: string;
  instrId?: string;
  amount: string;
  currency: string;
  date: string;
  creditor: Address;
  status: 'SETTLED' | 'FAILED' | 'BLOCKED';
  vopResult: string;
}

/**
 * The fixture with a fresh MsgId and EndToEndIds, each creditor a fresh wallet; the last
 * transaction's wallet is registered to another legal entity, so VoP blocks it (BE01).
 */
async function freshDocument() {
  const document = pain001Document() as any;
  const initiation = document.Document.CstmrCdtTrfInitn;
  const tag = suffix();
  initiation.GrpHdr.MsgId = `${initiation.GrpHdr.MsgId}-${tag}`;
  const wallets: Address[] = [];
  for (const block of initiation.PmtInf) {
    for (const transaction of block.CdtTrfTxInf) {
      if (transaction.PmtId.EndToEndId !== 'NOTPROVIDED') transaction.PmtId.EndToEndId = `${transaction.PmtId.EndToEndId}-${tag}`;
      const wallet = freshWallet();
      transaction.CdtrAcct.Id.Othr.Id = wallet.toLowerCase();
      wallets.push(wallet);
    }
  }
  const blocked = wallets[4]!;
  const registered = await call('POST', '/compliance/register', { payload: { walletAddress: blocked, lei: ACTIVE_LEI_ENTRY.lei }, headers: harness.admin });
  expect([200, 201]).toContain(registered.status);
  const msgId: string = initiation.GrpHdr.MsgId;
  const [eur, gbp] = [await hasRate('EUR'), await hasRate('GBP')];
  const tx = (k: number, j: number) => initiation.PmtInf[k].CdtTrfTxInf[j];
  const expected: Expected[] = [
    {
      tmsReference: tx(0, 0).PmtId.EndToEndId,
      endToEndId: tx(0, 0).PmtId.EndToEndId,
      instrId: 'INSTR-0001',
      amount: '1250.50',
      currency: 'EUR',
      date: '2025-03-17',
      creditor: wallets[0]!,
      status: eur ? 'SETTLED' : 'FAILED',
      vopResult: 'NOT_REGISTERED',
    },
    {
      tmsReference: tx(0, 1).PmtId.EndToEndId,
      endToEndId: tx(0, 1).PmtId.EndToEndId,
      amount: '98000',
      currency: 'EUR',
      date: '2025-03-17',
      creditor: wallets[1]!,
      status: eur ? 'SETTLED' : 'FAILED',
      vopResult: 'NOT_REGISTERED',
    },
    // DtTm 2025-03-18T08:00:00+08:00 is the 18th where it was written.
    {
      tmsReference: tx(1, 0).PmtId.EndToEndId,
      endToEndId: tx(1, 0).PmtId.EndToEndId,
      amount: '15000.25',
      currency: 'USD',
      date: '2025-03-18',
      creditor: wallets[2]!,
      status: 'SETTLED',
      vopResult: 'NOT_REGISTERED',
    },
    {
      tmsReference: `${msgId}/2/2`,
      endToEndId: 'NOTPROVIDED',
      amount: '730.10000',
      currency: 'GBP',
      date: '2025-03-18',
      creditor: wallets[3]!,
      status: gbp ? 'SETTLED' : 'FAILED',
      vopResult: 'NOT_REGISTERED',
    },
    { tmsReference: tx(1, 2).PmtId.EndToEndId, endToEndId: tx(1, 2).PmtId.EndToEndId, amount: '42', currency: 'USD', date: '2025-03-18', creditor: blocked, status: 'BLOCKED', vopResult: 'BLOCKED' },
  ];
  return { document, msgId, expected };
}

const TX_STATUS = { SETTLED: 'ACSC', FAILED: 'RJCT', BLOCKED: 'RJCT' } as const;
const REASON = { FAILED: 'ED05', BLOCKED: 'BE01' } as const;

describe('requestDigestOf: equal amounts are the same request (issue 21 finding 9)', () => {
  const base = {
    tmsReference: 'TMS-DIGEST-1',
    currency: 'USD',
    settlementAsset: 'USDC',
    creditor: { name: 'Creditor Ltd', walletAddress: '0x0000000000000000000000000000000000000001' },
    debtor: { name: 'Debtor Ltd', walletAddress: '0x0000000000000000000000000000000000000002' },
  };
  const digestOf = (amount: string) => requestDigestOf({ ...base, amount } as NativePayment);
  it('1250.50 (REST), 1250.5 (GraphQL Decimal) and 01250.500 have one digest; 1250.51 another', () => {
    expect(new Set([digestOf('1250.50'), digestOf('1250.5'), digestOf('01250.500')]).size).toBe(1);
    expect(digestOf('1250.51')).not.toBe(digestOf('1250.5'));
  });
});

describe('POST /integration/payments/initiate with a pain.001 document', () => {
  it('runs every transaction of every PmtInf and answers the pacs.002 report, each PaymentResult in its SplmtryData', async () => {
    const { document, msgId, expected } = await freshDocument();
    const treasuryBefore = await balanceOf(treasury());
    const { status, body } = await call('POST', '/integration/payments/initiate', { payload: document, headers: bearer });
    expect(status).toBe(200);
    const report = body.Document.FIToFIPmtStsRpt;
    expect(report.GrpHdr).toEqual({ MsgId: expect.stringMatching(/^RAIL-[0-9A-F]{24}$/), CreDtTm: harness.server.clock.now().toISOString() });
    const statuses = expected.map((transaction) => TX_STATUS[transaction.status]);
    const group = statuses.every((code) => code === 'RJCT') ? 'RJCT' : statuses.some((code) => code === 'RJCT') ? 'PART' : 'ACSC';
    expect(report.OrgnlGrpInfAndSts).toHaveLength(1);
    expect(report.OrgnlGrpInfAndSts[0]).toMatchObject({
      OrgnlMsgId: msgId,
      OrgnlMsgNmId: 'pain.001.001.09',
      OrgnlCreDtTm: '2025-03-14T09:30:00+00:00',
      OrgnlNbOfTxs: '5',
      OrgnlCtrlSum: '115022.85',
      GrpSts: group,
    });
    expect(group).toBe('PART');
    const counted = report.OrgnlGrpInfAndSts[0].NbOfTxsPerSts.reduce((sum: number, entry: { DtldNbOfTxs: string }) => sum + Number(entry.DtldNbOfTxs), 0);
    expect(counted).toBe(5);

    expect(report.TxInfAndSts).toHaveLength(5);
    let settledUnits = 0n;
    for (const [k, transaction] of report.TxInfAndSts.entries()) {
      const want = expected[k]!;
      expect(transaction.StsId).toBe(`${report.GrpHdr.MsgId}-${k + 1}`);
      expect(transaction.OrgnlEndToEndId).toBe(want.endToEndId);
      expect(transaction.OrgnlInstrId).toBe(want.instrId);
      expect(transaction.TxSts).toBe(TX_STATUS[want.status]);
      expect(transaction.OrgnlTxRef).toEqual({ Amt: { InstdAmt: { Ccy: want.currency, value: want.amount } }, ReqdExctnDt: { Dt: want.date } });
      if (want.status === 'SETTLED') {
        expect(transaction.StsRsnInf).toBeUndefined();
        expect(transaction.AccptncDtTm).toBe(
          harness.server.clock
            .now()
            .toISOString()
            .replace(/\.\d{3}Z$/, '.000Z'),
        );
      } else {
        expect(transaction.StsRsnInf).toEqual([{ Rsn: { Cd: REASON[want.status] }, AddtlInf: expect.any(Array) }]);
      }
      expect(transaction.SplmtryData).toHaveLength(1);
      expect(transaction.SplmtryData[0].PlcAndNm).toBe(EXTENSION_PLACE);
      const result = transaction.SplmtryData[0].Envlp.PaymentResult;
      // Every mapped field the PaymentResult carries: reference, amount, currency, asset; the
      // creditor's name, LEI and wallet through the VoP outcome; the status of the flow.
      expect(result).toMatchObject({
        railPaymentId: expect.stringMatching(/^pay_/),
        tmsReference: want.tmsReference,
        status: want.status,
        submittedAt: nowSeconds(),
        settledAt: want.status === 'SETTLED' ? nowSeconds() : 0,
        settlement: {
          amount: want.amount,
          currency: want.currency,
          asset: 'USDC',
          network: 'embedded-base',
          txHash: want.status === 'SETTLED' ? expect.stringMatching(TX_HASH) : '',
        },
        vop: { result: want.vopResult, proceedSafe: want.status !== 'BLOCKED' },
      });
      // The stored payment is the one reported.
      expect((await call('GET', `/integration/payments?tmsReference=${encodeURIComponent(want.tmsReference)}`, { headers: bearer })).body).toEqual(result);
      const received = await balanceOf(want.creditor);
      if (want.status === 'SETTLED') {
        expect(received).toBeGreaterThan(0n);
        settledUnits += received + BigInt(Math.round(Number(result.settlement.fee) * 1e6));
      } else {
        expect(received).toBe(0n);
      }
    }
    // What left the treasury is what the settled transactions received plus their fees.
    expect(treasuryBefore - (await balanceOf(treasury()))).toBe(settledUnits);
  });

  it('a retry of the same document answers the same statuses and results and sends nothing more', async () => {
    const { document, expected } = await freshDocument();
    const first = await call('POST', '/integration/payments/initiate', { payload: document, headers: bearer });
    const treasuryAfterFirst = await balanceOf(treasury());
    const balances = await Promise.all(expected.map((transaction) => balanceOf(transaction.creditor)));
    harness.server.clock.advance(60_000);
    const second = await call('POST', '/integration/payments/initiate', { payload: document, headers: bearer });
    expect(second.status).toBe(200);
    const resultsOf = (body: any) => body.Document.FIToFIPmtStsRpt.TxInfAndSts.map((transaction: any) => [transaction.TxSts, transaction.SplmtryData[0].Envlp.PaymentResult]);
    expect(resultsOf(second.body)).toEqual(resultsOf(first.body));
    expect(second.body.Document.FIToFIPmtStsRpt.OrgnlGrpInfAndSts).toEqual(first.body.Document.FIToFIPmtStsRpt.OrgnlGrpInfAndSts);
    expect(await balanceOf(treasury())).toBe(treasuryAfterFirst);
    expect(await Promise.all(expected.map((transaction) => balanceOf(transaction.creditor)))).toEqual(balances);
  });

  it('validation issues are a 400 {error, code} naming each JSON path, and nothing is sent', async () => {
    const { document, expected } = await freshDocument();
    const initiation = document.Document.CstmrCdtTrfInitn;
    initiation.PmtInf[1].CdtTrfTxInf[2].Amt.InstdAmt.value = '-1';
    initiation.PmtInf[0].CdtTrfTxInf[1].CdtrAcct.Id.Othr.Id = 'not-a-wallet';
    const { status, body } = await call('POST', '/integration/payments/initiate', { payload: document, headers: bearer });
    expect(status).toBe(400);
    expect(body.code).toBe('PAY_ERR_INVALID_REQUEST');
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
    expect(body.error).toContain('PmtInf[1].CdtTrfTxInf[2].Amt.InstdAmt.value');
    expect(body.error).toContain('PmtInf[0].CdtTrfTxInf[1].CdtrAcct.Id.Othr.Id');
    expect((await call('GET', `/integration/payments?tmsReference=${encodeURIComponent(expected[0]!.tmsReference)}`, { headers: bearer })).status).toBe(404);
  });

  it('hostile pain.001 bodies are 400, never 500: __proto__ by hand, a wrong type, a huge MsgId, an unknown element', async () => {
    const { document } = await freshDocument();
    const text = JSON.stringify(document);
    const bodies = [
      text.replace('"GrpHdr":{', '"GrpHdr":{"__proto__":{"polluted":true},'),
      text.replace(/"NbOfTxs":"5"/, '"NbOfTxs":5'),
      text.replace(/"MsgId":"[^"]*"/, `"MsgId":"${'M'.repeat(100_000)}"`),
      text.replace('"PmtMtd":"TRF",', '"PmtMtd":"TRF","Surprise":1,'),
      JSON.stringify({ Document: { CstmrCdtTrfInitn: { GrpHdr: null, PmtInf: 'x' } } }),
    ];
    for (const raw of bodies) {
      const { status, body } = await call('POST', '/integration/payments/initiate', { raw, headers: bearer });
      expect(status).toBe(400);
      expect(body.code).toBe('PAY_ERR_INVALID_REQUEST');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('401 without a bearer key, before the document is read', async () => {
    const { document } = await freshDocument();
    const { status, body } = await call('POST', '/integration/payments/initiate', { payload: document });
    expect(status).toBe(401);
    expect(body.code).toBe('GEN_ERR_UNAUTHORIZED');
  });
});

function nativePayment(overrides: Record<string, unknown> = {}) {
  return {
    tmsReference: `TMS-B-${randomBytes(6).toString('hex')}`,
    amount: '10.25',
    currency: 'USD',
    creditor: { name: 'Some Supplier Ltd', walletAddress: freshWallet() },
    debtor: { name: 'SHELL PLC', lei: LEI.shellPlc, walletAddress: freshWallet() },
    ...overrides,
  };
}

describe('POST /integration/payments/batch', () => {
  it('settles each payment independently, results in order, each idempotent by its own tmsReference', async () => {
    const payments = [nativePayment(), nativePayment({ amount: '3' }), nativePayment({ currency: 'JPY', amount: '100' }), nativePayment({ amount: '7.5' })];
    const { status, body } = await call('POST', '/integration/payments/batch', { payload: { payments }, headers: bearer });
    expect(status).toBe(200);
    expect(body).toHaveLength(4);
    expect(body.map((result: any) => result.tmsReference)).toEqual(payments.map((payment) => payment.tmsReference));
    const jpy = await hasRate('JPY');
    expect(body.map((result: any) => result.status)).toEqual(['SETTLED', 'SETTLED', jpy ? 'SETTLED' : 'FAILED', 'SETTLED']);
    for (const [k, result] of body.entries()) {
      expect(result.settlement).toMatchObject({ amount: payments[k]!.amount, currency: payments[k]!.currency, asset: 'USDC' });
      expect((await call('GET', `/integration/payments/${result.railPaymentId}`, { headers: bearer })).body).toEqual(result);
    }

    // The same batch again, with one new payment and one used reference under another body.
    const treasuryBefore = await balanceOf(treasury());
    const again = [...payments.slice(0, 2), { ...payments[3]!, amount: '8' }, nativePayment({ amount: '1' })];
    const second = await call('POST', '/integration/payments/batch', { payload: { payments: again }, headers: bearer });
    expect(second.status).toBe(200);
    expect(second.body[0]).toEqual(body[0]);
    expect(second.body[1]).toEqual(body[1]);
    expect(second.body[2]).toEqual({ tmsReference: payments[3]!.tmsReference, error: expect.any(String), code: 'PAY_ERR_IDEMPOTENCY_CONFLICT' });
    expect(second.body[3]).toMatchObject({ tmsReference: again[3]!.tmsReference, status: 'SETTLED' });
    // Only the new payment was sent: 1 USDC left the treasury (the creditor receives it less the fee).
    expect(treasuryBefore - (await balanceOf(treasury()))).toBe(1_000_000n);
  });

  it('50 payments are accepted; 51 is a 400 before any is read; a bad payment is a 400 naming its path, and nothing is sent', async () => {
    const fifty = Array.from({ length: 50 }, () => nativePayment({ amount: '0.01' }));
    const ok = await call('POST', '/integration/payments/batch', { payload: { payments: fifty }, headers: bearer });
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveLength(50);
    expect(ok.body.every((result: any, k: number) => result.tmsReference === fifty[k]!.tmsReference)).toBe(true);

    const fiftyOne = Array.from({ length: 51 }, () => nativePayment());
    const tooMany = await call('POST', '/integration/payments/batch', { payload: { payments: fiftyOne }, headers: bearer });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ error: expect.stringContaining('payments must hold at most 50 payments'), code: 'PAY_ERR_INVALID_REQUEST' });
    expect((await call('GET', `/integration/payments?tmsReference=${fiftyOne[0]!.tmsReference}`, { headers: bearer })).status).toBe(404);

    const bad = [nativePayment(), nativePayment({ amount: 'ten' })];
    const refused = await call('POST', '/integration/payments/batch', { payload: { payments: bad }, headers: bearer });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('payments[1].amount');
    expect((await call('GET', `/integration/payments?tmsReference=${bad[0]!.tmsReference}`, { headers: bearer })).status).toBe(404);
  });

  it('a quote used by an earlier entry is that entry alone refused, 409 PAY_ERR_QUOTE_USED (decision 0046); an AGT- reference is a 400 naming its path (decision 0047)', async () => {
    const quote = await call('POST', '/stability/quote', { payload: { amountUsd: 10.25, hasFx: false } });
    expect(quote.status).toBe(200);
    const payments = [nativePayment({ quoteId: quote.body.quoteId }), nativePayment({ quoteId: quote.body.quoteId })];
    const { status, body } = await call('POST', '/integration/payments/batch', { payload: { payments }, headers: bearer });
    expect(status).toBe(200);
    expect(body[0]).toMatchObject({ tmsReference: payments[0]!.tmsReference, status: 'SETTLED', settlement: { fee: String(quote.body.fees.total.usd) } });
    expect(body[1]).toEqual({ tmsReference: payments[1]!.tmsReference, error: expect.stringContaining('already used by another payment'), code: 'PAY_ERR_QUOTE_USED' });

    const reserved = await call('POST', '/integration/payments/batch', { payload: { payments: [nativePayment({ tmsReference: 'AGT-HLD-hld_AAAAAAAAAAAAAAAAAAAAAA' })] }, headers: bearer });
    expect({ status: reserved.status, body: reserved.body }).toEqual({
      status: 400,
      body: { error: expect.stringContaining('payments[0].tmsReference must not start with AGT- or AP2-'), code: 'PAY_ERR_INVALID_REQUEST' },
    });
  });

  it('hostile batch bodies are 400: not an array, empty, __proto__ by hand, a huge reference; 401 without a key', async () => {
    const raws = [
      '{"payments":{"0":{}}}',
      '{"payments":[]}',
      '{"__proto__":{"payments":[]},"payments":[]}',
      JSON.stringify({ payments: [nativePayment({ tmsReference: 'R'.repeat(100_000) })] }),
      '[]',
    ];
    for (const raw of raws) {
      const { status, body } = await call('POST', '/integration/payments/batch', { raw, headers: bearer });
      expect(status).toBe(400);
      expect(body.code).toBe('PAY_ERR_INVALID_REQUEST');
    }
    expect((await call('POST', '/integration/payments/batch', { payload: { payments: [nativePayment()] } })).status).toBe(401);
  });
});

describe('a native body remembered by its text (decision 0043)', () => {
  const context = createRequestContext({}, new ManualClock(TEST_NOW));
  const wallet = freshWallet();
  const payment = {
    tmsReference: 'TMS-MEMO-1',
    amount: '10',
    currency: 'USD',
    creditor: { name: 'Creditor Ltd', walletAddress: wallet.toLowerCase() },
    debtor: { name: 'Debtor Ltd', walletAddress: freshWallet() },
  };
  const text = JSON.stringify(payment);

  /** initiation over a service that records what it is given, answers a result, and refuses references starting REFUSED (409). */
  function recorded() {
    const calls: Array<{ payment: NativePayment; options: InitiateOptions | undefined }> = [];
    const service = {
      async initiate(_context: unknown, given: NativePayment, options?: InitiateOptions) {
        calls.push({ payment: given, options });
        if (given.tmsReference.startsWith('REFUSED')) throw new AppError('PAY_ERR_IDEMPOTENCY_CONFLICT');
        return { ...samplePaymentResult(`pay_${randomIds.uuid()}`), tmsReference: given.tmsReference };
      },
    };
    const payments = { for: () => service as unknown as PaymentsService } as unknown as Payments;
    const initiation = createInitiation({ payments, ids: randomIds }).for({ kind: 'institution', institutionId: 'inst_memo' });
    const send = (bodyText: string) => initiation.initiate(context, JSON.parse(bodyText), bodyText);
    return { calls, initiation, send };
  }

  it('the same text is not read again: the service is given the payment read the first time, frozen, with its digest', async () => {
    const { calls, send } = recorded();
    await send(text);
    await send(text);
    expect(calls[0]!.options).toBeUndefined();
    expect(calls[1]!.payment).toBe(calls[0]!.payment);
    expect(calls[1]!.options).toEqual({ requestSha256: requestDigestOf(calls[0]!.payment) });
    // The validated payment (wallet in its checksum form, the default asset), not the body as sent.
    expect(calls[1]!.payment).toMatchObject({ settlementAsset: 'USDC', creditor: { walletAddress: wallet } });
    expect([calls[1]!.payment, calls[1]!.payment.creditor, calls[1]!.payment.debtor].every(Object.isFrozen)).toBe(true);
    // The same payment in other words (spaces) is another text: read, then known by that text too.
    const spaced = JSON.stringify(payment, null, 2);
    await send(spaced);
    await send(spaced);
    expect(calls[2]!.options).toBeUndefined();
    expect(calls[2]!.payment).not.toBe(calls[0]!.payment);
    expect(calls[3]!.payment).toBe(calls[2]!.payment);
  });

  it.each([
    ['a text longer than MAX_REMEMBERED_TEXT_LENGTH', `${text}${' '.repeat(MAX_REMEMBERED_TEXT_LENGTH)}`],
    ['a pain.001 document (its report is new at every call)', JSON.stringify(pain001Document())],
  ])('read at every call: %s', async (_name, bodyText) => {
    const { calls, send } = recorded();
    await send(bodyText);
    const once = calls.length;
    await send(bodyText);
    expect(calls.length).toBe(2 * once);
    expect(calls.every((call) => call.options === undefined)).toBe(true);
    expect(calls[once]!.payment).not.toBe(calls[0]!.payment);
  });

  it('read at every call: a body without its text (MCP), and a text the service refused', async () => {
    const { calls, initiation, send } = recorded();
    await initiation.initiate(context, JSON.parse(text));
    await initiation.initiate(context, JSON.parse(text));
    const refused = JSON.stringify({ ...payment, tmsReference: 'REFUSED-1' });
    for (let k = 0; k < 2; k += 1) await expect(send(refused)).rejects.toMatchObject({ code: 'PAY_ERR_IDEMPOTENCY_CONFLICT' });
    expect(calls.map((call) => call.options)).toEqual([undefined, undefined, undefined, undefined]);
    expect(calls[1]!.payment).not.toBe(calls[0]!.payment);
    expect(calls[3]!.payment).not.toBe(calls[2]!.payment);
  });
});
