import { describe, expect, it } from 'vitest';
import { readPaymentInitiation } from '../inputs.js';
import { PAIN001_TEXT } from '../testing.js';
import { additionalInfoOf, buildPacs002, buildPacs002ForMapping, groupStatusOf, rejectionCauseOf, type ReportedResult, type TransactionStatusCode, transactionStatusOf } from './pacs002.js';
import type { Pain001Mapping } from './pain001.js';

function mapping(): Pain001Mapping {
  const read = readPaymentInitiation(JSON.parse(PAIN001_TEXT));
  if (!read.ok || read.value.kind !== 'pain001') throw new Error('the fixture must map');
  return read.value.mapping;
}

const compliance = { fatfR16Compliant: true, micaCompliant: true, geniusCompliant: true, regulatoryNote: 'Originator and beneficiary information travel with the transfer (FATF R.16).' };
const vopOk = {
  requestId: '6f1c2d9e-3b7a-4c1e-9a55-0d4f2b8e7c31',
  result: 'LEI_MATCH',
  proceedSafe: true,
  score: 100,
  resolvedBy: 'LEI_EXACT_MATCH',
  message: 'LEI matched exactly; name check skipped.',
};
const vopBlocked = {
  requestId: '0b9e6a44-8f2d-4f61-b3c7-5a1e9d2c4f80',
  result: 'BLOCKED',
  proceedSafe: false,
  score: 21,
  resolvedBy: 'NAME_MATCH',
  message: 'Submitted name does not match the registered name of the wallet.',
};
const settlement = { txHash: `0x${'ab'.repeat(32)}`, amount: '1361.17', currency: 'EUR', asset: 'USDC', network: 'base-mainnet', exchangeRate: '1.0885', fee: '2.04' };

const SUBMITTED = 1_741_944_600; // 2025-03-14T09:30:00Z
const results: ReportedResult[] = [
  { railPaymentId: 'rp_01', tmsReference: 'E2E-MAXRETS-INV-88121', status: 'SETTLED', submittedAt: SUBMITTED, settledAt: SUBMITTED + 4, settlement, vop: vopOk, compliance },
  { railPaymentId: 'rp_02', tmsReference: 'E2E-ROCA-PO-5531', status: 'BLOCKED', submittedAt: SUBMITTED, vop: vopBlocked, compliance: { ...compliance, fatfR16Compliant: false } },
  { railPaymentId: 'rp_03', tmsReference: 'E2E-BSP-2025-Q1', status: 'PENDING', submittedAt: SUBMITTED, vop: vopOk, compliance },
  {
    railPaymentId: 'rp_04',
    tmsReference: 'SHELL-TRY-20250314-0001/2/2',
    status: 'BLOCKED',
    submittedAt: SUBMITTED,
    vop: vopOk,
    compliance: { ...compliance, regulatoryNote: 'AML screening: counterparty wallet on the OFAC SDN digital currency address list.' },
  },
  { railPaymentId: 'rp_05', tmsReference: 'E2E-BSP-FEE-7', status: 'FAILED', submittedAt: SUBMITTED, vop: vopOk, compliance: { ...compliance, regulatoryNote: '' } },
];

describe('the pacs.002 answer to the fixture pain.001, field by field', () => {
  const report = buildPacs002ForMapping(mapping(), results, { messageId: 'RAIL-RPT-20250314-0001', createdAtMs: (SUBMITTED + 5) * 1000 });
  const { GrpHdr, OrgnlGrpInfAndSts, TxInfAndSts } = report.Document.FIToFIPmtStsRpt;

  it('group header and original group', () => {
    expect(GrpHdr).toEqual({ MsgId: 'RAIL-RPT-20250314-0001', CreDtTm: '2025-03-14T09:30:05.000Z' });
    expect(OrgnlGrpInfAndSts).toEqual([
      {
        OrgnlMsgId: 'SHELL-TRY-20250314-0001',
        OrgnlMsgNmId: 'pain.001.001.09',
        OrgnlCreDtTm: '2025-03-14T09:30:00+00:00',
        OrgnlNbOfTxs: '5',
        OrgnlCtrlSum: '115022.85',
        GrpSts: 'PART', // 3 rejected among 5
        NbOfTxsPerSts: [
          { DtldNbOfTxs: '1', DtldSts: 'ACSC', DtldCtrlSum: '1250.5' },
          { DtldNbOfTxs: '1', DtldSts: 'ACSP', DtldCtrlSum: '15000.25' },
          // 98000 + 730.10000 + 42 = 98772.1
          { DtldNbOfTxs: '3', DtldSts: 'RJCT', DtldCtrlSum: '98772.1' },
        ],
      },
    ]);
  });

  it('one TxInfAndSts per transaction, in document order', () => {
    expect(TxInfAndSts.map((transaction) => [transaction.StsId, transaction.OrgnlEndToEndId, transaction.TxSts])).toEqual([
      ['RAIL-RPT-20250314-0001-1', 'E2E-MAXRETS-INV-88121', 'ACSC'],
      ['RAIL-RPT-20250314-0001-2', 'E2E-ROCA-PO-5531', 'RJCT'],
      ['RAIL-RPT-20250314-0001-3', 'E2E-BSP-2025-Q1', 'ACSP'],
      ['RAIL-RPT-20250314-0001-4', 'NOTPROVIDED', 'RJCT'], // the original value, as sent
      ['RAIL-RPT-20250314-0001-5', 'E2E-BSP-FEE-7', 'RJCT'],
    ]);
  });

  it('a settled transaction', () => {
    expect(TxInfAndSts[0]).toEqual({
      StsId: 'RAIL-RPT-20250314-0001-1',
      OrgnlInstrId: 'INSTR-0001',
      OrgnlEndToEndId: 'E2E-MAXRETS-INV-88121',
      TxSts: 'ACSC',
      AccptncDtTm: '2025-03-14T09:30:00.000Z',
      OrgnlTxRef: { Amt: { InstdAmt: { Ccy: 'EUR', value: '1250.50' } }, ReqdExctnDt: { Dt: '2025-03-17' } },
      SplmtryData: [{ PlcAndNm: 'Document.FIToFIPmtStsRpt.TxInfAndSts', Envlp: { PaymentResult: results[0] } }],
    });
  });

  it('a VoP block: RJCT with BE01 and the VoP message', () => {
    expect(TxInfAndSts[1]).toEqual({
      StsId: 'RAIL-RPT-20250314-0001-2',
      OrgnlEndToEndId: 'E2E-ROCA-PO-5531',
      TxSts: 'RJCT',
      StsRsnInf: [{ Rsn: { Cd: 'BE01' }, AddtlInf: ['VoP BLOCKED (score 21): Submitted name does not match the registered name of the wallet.'] }],
      OrgnlTxRef: { Amt: { InstdAmt: { Ccy: 'EUR', value: '98000' } }, ReqdExctnDt: { Dt: '2025-03-17' } },
      SplmtryData: [{ PlcAndNm: 'Document.FIToFIPmtStsRpt.TxInfAndSts', Envlp: { PaymentResult: results[1] } }],
    });
  });

  it('pending after checks: ACSP with its acceptance time', () => {
    expect(TxInfAndSts[2]).toMatchObject({
      TxSts: 'ACSP',
      AccptncDtTm: '2025-03-14T09:30:00.000Z',
      OrgnlTxRef: { Amt: { InstdAmt: { Ccy: 'USD', value: '15000.25' } }, ReqdExctnDt: { Dt: '2025-03-18' } },
    });
    expect(TxInfAndSts[2]).not.toHaveProperty('StsRsnInf');
  });

  it('a compliance block after a passing VoP: RJCT with RR04 and the regulatory note', () => {
    expect(TxInfAndSts[3]).toMatchObject({ TxSts: 'RJCT', StsRsnInf: [{ Rsn: { Cd: 'RR04' }, AddtlInf: ['AML screening: counterparty wallet on the OFAC SDN digital currency address list.'] }] });
    expect(TxInfAndSts[3]).not.toHaveProperty('AccptncDtTm');
  });

  it('a rail failure: RJCT with ED05', () => {
    expect(TxInfAndSts[4]).toMatchObject({ TxSts: 'RJCT', StsRsnInf: [{ Rsn: { Cd: 'ED05' }, AddtlInf: ['Settlement on the rail did not complete.'] }] });
  });

  it('a cause given by the caller overrides the one read from the result (AM04 insufficient funds)', () => {
    const withCause = buildPacs002ForMapping(mapping(), results, { messageId: 'R2', createdAtMs: 0, causes: [undefined, undefined, undefined, undefined, 'INSUFFICIENT_FUNDS'] });
    expect(withCause.Document.FIToFIPmtStsRpt.TxInfAndSts[4]?.StsRsnInf?.[0]?.Rsn.Cd).toBe('AM04');
  });

  it('refuses results that do not match the transfers, and a report id too long for StsId', () => {
    expect(() => buildPacs002ForMapping(mapping(), results.slice(1), { messageId: 'R', createdAtMs: 0 })).toThrow('4 results for 5 transfers');
    expect(() => buildPacs002ForMapping(mapping(), results, { messageId: 'R'.repeat(32), createdAtMs: 0 })).toThrow(RangeError);
  });
});

describe('status mapping', () => {
  const base = { railPaymentId: 'rp', tmsReference: 't', compliance };
  it.each([
    ['SETTLED', vopOk, 'ACSC'],
    ['PENDING', vopOk, 'ACSP'], // checks passed, settlement in process
    ['PENDING', undefined, 'PDNG'], // queued, not yet processed
    ['PENDING', vopBlocked, 'PDNG'],
    ['BLOCKED', vopBlocked, 'RJCT'],
    ['FAILED', vopOk, 'RJCT'],
  ] as const)('%s (vop %j) -> %s', (status, vop, expected) => {
    expect(transactionStatusOf({ ...base, status, ...(vop && { vop }) })).toBe(expected);
  });

  it.each([
    ['BLOCKED', vopBlocked, 'VOP_NAME_MISMATCH'],
    ['BLOCKED', undefined, 'VOP_NAME_MISMATCH'],
    ['BLOCKED', vopOk, 'COMPLIANCE_BLOCK'],
    ['FAILED', vopOk, 'SETTLEMENT_FAILED'],
    ['SETTLED', vopOk, undefined],
  ] as const)('cause of %s (vop %j) -> %s', (status, vop, expected) => {
    expect(rejectionCauseOf({ ...base, status, ...(vop && { vop }) })).toBe(expected);
  });

  it.each([
    [['ACSC', 'ACSC'], 'ACSC'],
    [['ACSC', 'ACSP'], 'ACSP'],
    [['ACSC', 'PDNG'], 'PDNG'],
    [['RJCT', 'RJCT'], 'RJCT'],
    [['RJCT', 'ACSC'], 'PART'],
    [['RJCT', 'PDNG'], 'PART'],
    [['ACSP'], 'ACSP'],
  ] as Array<[TransactionStatusCode[], string]>)('group of %j -> %s', (statuses, expected) => {
    expect(groupStatusOf(statuses)).toBe(expected);
  });

  it('has no group status for no transaction', () => {
    expect(() => groupStatusOf([])).toThrow(RangeError);
  });
});

describe('additionalInfoOf (AddtlInf: Max105Text, at most 3 occurrences)', () => {
  it('splits at 105 characters, counted in code points, and stops at 3 pieces', () => {
    const note = `${'a'.repeat(105)}${'€'.repeat(105)}${'🔒'.repeat(105)}tail`;
    const pieces = additionalInfoOf(note);
    expect(pieces).toEqual(['a'.repeat(105), '€'.repeat(105), '🔒'.repeat(105)]);
    expect(pieces.every((piece) => [...piece].length <= 105)).toBe(true);
  });
  it('writes nothing for an empty note', () => {
    expect(additionalInfoOf('   ')).toEqual([]);
  });
  it('omits AddtlInf when the note is empty', () => {
    const report = buildPacs002({
      messageId: 'R',
      createdAtMs: 0,
      original: { msgId: 'M', creDtTm: '2025-03-14T09:30:00Z', nbOfTxs: '1' },
      transactions: [
        {
          origin: { endToEndId: 'E' },
          payment: { amount: '1', currency: 'EUR' },
          result: { railPaymentId: 'rp', tmsReference: 'E', status: 'BLOCKED', compliance: { ...compliance, regulatoryNote: '' }, vop: vopOk },
        },
      ],
    });
    const [transaction] = report.Document.FIToFIPmtStsRpt.TxInfAndSts;
    expect(transaction?.StsRsnInf).toEqual([{ Rsn: { Cd: 'RR04' } }]);
    expect(transaction?.OrgnlTxRef).toEqual({ Amt: { InstdAmt: { Ccy: 'EUR', value: '1' } } });
    expect(report.Document.FIToFIPmtStsRpt.OrgnlGrpInfAndSts[0]).not.toHaveProperty('OrgnlCtrlSum');
    expect(report.Document.FIToFIPmtStsRpt.OrgnlGrpInfAndSts[0]?.GrpSts).toBe('RJCT');
  });
});
