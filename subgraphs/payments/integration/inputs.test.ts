import { describe, expect, it } from 'vitest';
import type { IsoIssue, Pain001Mapping } from './domain/index.js';
import { batchBodySchema, isPain001Body, jsonPathOf, readBatch, readPaymentInitiation } from './inputs.js';
import { LEI, nativePaymentBody, PAIN001_TEXT, pain001Document, WALLET } from './testing.js';

/** The mapping of a body that must be valid. */
function mappingOf(body: unknown, options = {}): Pain001Mapping {
  const read = readPaymentInitiation(body, options);
  if (!read.ok) throw new Error(`unexpected issues: ${JSON.stringify(read.issues)}`);
  if (read.value.kind !== 'pain001') throw new Error('read as native');
  return read.value.mapping;
}

/** The issues of a body that must be refused. */
function issuesOf(body: unknown, options = {}): IsoIssue[] {
  const read = readPaymentInitiation(body, options);
  if (read.ok) throw new Error('unexpectedly valid');
  return read.issues;
}

/** The document with `change` applied to its CstmrCdtTrfInitn. */
function alteredDocument(change: (initiation: any) => void): Record<string, unknown> {
  const document = pain001Document();
  change((document.Document as any).CstmrCdtTrfInitn);
  return document;
}

describe('pain.001 to native payments: every transaction of every PmtInf', () => {
  const mapping = mappingOf(JSON.parse(PAIN001_TEXT));

  it('keeps the group header', () => {
    expect(mapping.msgId).toBe('SHELL-TRY-20250314-0001');
    expect(mapping.creDtTm).toBe('2025-03-14T09:30:00+00:00');
    expect(mapping.nbOfTxs).toBe('5');
    expect(mapping.ctrlSum).toBe('115022.85');
    expect(mapping.initiatingPartyName).toBe('Shell plc Group Treasury');
    expect(mapping.transfers).toHaveLength(5);
  });

  it('maps each mapped field of every transaction (spec §2 table), in document order', () => {
    expect(mapping.transfers.map((transfer) => transfer.payment)).toEqual([
      {
        tmsReference: 'E2E-MAXRETS-INV-88121', // PmtId.EndToEndId
        amount: '1250.50', // InstdAmt.value, as sent
        currency: 'EUR', // InstdAmt.Ccy
        settlementAsset: 'USDC',
        creditor: { name: 'MAXRETS VENTURES PLC', lei: LEI.maxrets, walletAddress: WALLET.maxrets.checksum },
        debtor: { name: 'SHELL PLC', lei: LEI.shellPlc, walletAddress: WALLET.treasuryEur.checksum },
        remittanceInfo: 'Invoice 88121 March services',
        requestedExecutionDate: '2025-03-17',
      },
      {
        tmsReference: 'E2E-ROCA-PO-5531',
        amount: '98000', // a JSON number of 5 significant digits, read exactly
        currency: 'EUR',
        settlementAsset: 'USDC',
        // Cdtr.Id.OrgId.LEI wins over CdtrAgt.FinInstnId.LEI (Popular Bank).
        creditor: { name: 'ROCA NETWORKS INC.', lei: LEI.rocaNetworks, walletAddress: WALLET.roca.checksum },
        debtor: { name: 'SHELL PLC', lei: LEI.shellPlc, walletAddress: WALLET.treasuryEur.checksum },
        remittanceInfo: 'PO 5531\nNetwork equipment, second instalment', // two Ustrd lines
        requestedExecutionDate: '2025-03-17',
      },
      {
        tmsReference: 'E2E-BSP-2025-Q1',
        amount: '15000.25',
        currency: 'USD',
        settlementAsset: 'USDC',
        creditor: { name: 'Brunei Shell Petroleum Company Sendirian Berhad', lei: LEI.bruneiShell, walletAddress: WALLET.brunei.checksum },
        // PmtInf[1].Dbtr has no Id: no debtor LEI.
        debtor: { name: 'SHELL PLC', walletAddress: WALLET.treasuryUsd.checksum },
        // DtTm 2025-03-18T08:00:00+08:00: the date as written, not converted to UTC (2025-03-18T00:00Z).
        requestedExecutionDate: '2025-03-18',
      },
      {
        tmsReference: 'SHELL-TRY-20250314-0001/2/2', // NOTPROVIDED: MsgId / PmtInf position / transaction position
        amount: '730.10000',
        currency: 'GBP',
        settlementAsset: 'USDC',
        // No Cdtr.Id: the creditor agent's LEI.
        creditor: { name: 'Shell Energy Philippines, Inc.', lei: LEI.popularBank, walletAddress: WALLET.philippines.checksum },
        debtor: { name: 'SHELL PLC', walletAddress: WALLET.treasuryUsd.checksum },
        remittanceInfo: 'Fuel supply Feb 2025',
        requestedExecutionDate: '2025-03-18',
      },
      {
        tmsReference: 'E2E-BSP-FEE-7',
        amount: '42',
        currency: 'USD',
        settlementAsset: 'USDC',
        creditor: { name: 'Brunei Shell Petroleum Company Sendirian Berhad', walletAddress: WALLET.brunei.checksum },
        debtor: { name: 'SHELL PLC', walletAddress: WALLET.treasuryUsd.checksum },
        requestedExecutionDate: '2025-03-18',
      },
    ]);
  });

  it('records where each payment came from', () => {
    expect(mapping.transfers.map((transfer) => transfer.origin)).toEqual([
      { msgId: 'SHELL-TRY-20250314-0001', pmtInfId: 'PMT-EUR-0314-A', pmtInfIndex: 0, txIndex: 0, instrId: 'INSTR-0001', endToEndId: 'E2E-MAXRETS-INV-88121', path: 'PmtInf[0].CdtTrfTxInf[0]' },
      { msgId: 'SHELL-TRY-20250314-0001', pmtInfId: 'PMT-EUR-0314-A', pmtInfIndex: 0, txIndex: 1, endToEndId: 'E2E-ROCA-PO-5531', creditorAgentLei: LEI.popularBank, path: 'PmtInf[0].CdtTrfTxInf[1]' },
      { msgId: 'SHELL-TRY-20250314-0001', pmtInfId: 'PMT-MIX-0314-B', pmtInfIndex: 1, txIndex: 0, endToEndId: 'E2E-BSP-2025-Q1', path: 'PmtInf[1].CdtTrfTxInf[0]' },
      { msgId: 'SHELL-TRY-20250314-0001', pmtInfId: 'PMT-MIX-0314-B', pmtInfIndex: 1, txIndex: 1, endToEndId: 'NOTPROVIDED', creditorAgentLei: LEI.popularBank, path: 'PmtInf[1].CdtTrfTxInf[1]' },
      { msgId: 'SHELL-TRY-20250314-0001', pmtInfId: 'PMT-MIX-0314-B', pmtInfIndex: 1, txIndex: 2, endToEndId: 'E2E-BSP-FEE-7', path: 'PmtInf[1].CdtTrfTxInf[2]' },
    ]);
  });

  it('gives every transaction the callbackUrl given beside Document', () => {
    const withCallback = { ...pain001Document(), callbackUrl: 'https://treasury.example.com/hooks/iso' };
    expect(mappingOf(withCallback).transfers.map((transfer) => transfer.payment.callbackUrl)).toEqual(Array(5).fill('https://treasury.example.com/hooks/iso'));
  });

  it('checks minor units against a table when one is given (here a two-entry table for the test: EUR 2, USD 2)', () => {
    const minorUnitsOf = (currency: string) => (({ EUR: 2, USD: 2 }) as Record<string, number>)[currency];
    // GBP is not in this table; 730.10000 has 1 fraction digit by value, so only the currency fails.
    expect(issuesOf(JSON.parse(PAIN001_TEXT), { minorUnitsOf })).toEqual([
      { path: 'PmtInf[1].CdtTrfTxInf[1].Amt.InstdAmt.Ccy', message: 'GBP is not an ISO 4217 currency code we know', reason: 'AM11' },
    ]);
    const threeDecimals = alteredDocument((initiation) => {
      initiation.GrpHdr.CtrlSum = '115022.851';
      initiation.PmtInf[0].CtrlSum = '99250.501';
      initiation.PmtInf[0].CdtTrfTxInf[0].Amt.InstdAmt.value = '1250.501';
    });
    expect(issuesOf(threeDecimals, { minorUnitsOf: (currency: string) => (currency === 'GBP' ? 2 : 2) })).toEqual([
      { path: 'PmtInf[0].CdtTrfTxInf[0].Amt.InstdAmt.value', message: "has more fraction digits than EUR's ISO 4217 minor unit (2)", reason: 'CH20' },
    ]);
  });
});

describe('pain.001 cross-element checks (the issues name the JSON path)', () => {
  it.each([
    [
      'GrpHdr.NbOfTxs one short',
      (i: any) => {
        i.GrpHdr.NbOfTxs = '4';
      },
      [{ path: 'GrpHdr.NbOfTxs', message: 'is 4 but the document holds 5 transactions', reason: 'AM19' }],
    ],
    [
      'GrpHdr.NbOfTxs with leading zeros counts by value',
      (i: any) => {
        i.GrpHdr.NbOfTxs = '005';
      },
      [],
    ],
    [
      'PmtInf NbOfTxs wrong',
      (i: any) => {
        i.PmtInf[1].NbOfTxs = '2';
      },
      [{ path: 'PmtInf[1].NbOfTxs', message: 'is 2 but the payment information holds 3 transactions', reason: 'AM20' }],
    ],
    // 115022.85 - 0.01: exact decimal comparison, no float tolerance.
    [
      'GrpHdr.CtrlSum off by a cent',
      (i: any) => {
        i.GrpHdr.CtrlSum = '115022.84';
      },
      [{ path: 'GrpHdr.CtrlSum', message: 'is 115022.84 but the instructed amounts add up to 115022.85', reason: 'AM16' }],
    ],
    [
      'GrpHdr.CtrlSum equal in value with other zeros',
      (i: any) => {
        i.GrpHdr.CtrlSum = '0115022.8500';
      },
      [],
    ],
    [
      'PmtInf CtrlSum wrong',
      (i: any) => {
        i.PmtInf[0].CtrlSum = '99250.49';
      },
      [{ path: 'PmtInf[0].CtrlSum', message: 'is 99250.49 but its instructed amounts add up to 99250.5', reason: 'AM17' }],
    ],
    [
      'two transactions with one EndToEndId',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[2].PmtId.EndToEndId = 'E2E-MAXRETS-INV-88121';
      },
      [{ path: 'PmtInf[1].CdtTrfTxInf[2].PmtId.EndToEndId', message: 'E2E-MAXRETS-INV-88121 is already the reference of PmtInf[0].CdtTrfTxInf[0]; each transaction needs its own', reason: 'AM05' }],
    ],
    [
      "an EndToEndId in the settlement agent's references",
      (i: any) => {
        i.PmtInf[0].CdtTrfTxInf[0].PmtId.EndToEndId = 'AP2-E2E-1';
      },
      [{ path: 'PmtInf[0].CdtTrfTxInf[0].PmtId.EndToEndId', message: "AP2-E2E-1 must not start with AGT- or AP2-: those references are the settlement agent's", reason: 'CH16' }],
    ],
    [
      'an EndToEndId equal to a NOTPROVIDED stand-in',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[2].PmtId.EndToEndId = 'SHELL-TRY-20250314-0001/2/2';
      },
      [
        {
          path: 'PmtInf[1].CdtTrfTxInf[2].PmtId.EndToEndId',
          message: 'SHELL-TRY-20250314-0001/2/2 is already the reference of PmtInf[1].CdtTrfTxInf[1]; each transaction needs its own',
          reason: 'AM05',
        },
      ],
    ],
  ])('%s', (_name, change, expected) => {
    const read = readPaymentInitiation(alteredDocument(change));
    expect(read.ok ? [] : read.issues).toEqual(expected);
  });

  it('reports every problem at once, not only the first', () => {
    const issues = issuesOf(
      alteredDocument((i) => {
        i.GrpHdr.NbOfTxs = '7';
        i.PmtInf[0].NbOfTxs = '1';
      }),
    );
    expect(issues.map((issue) => issue.path)).toEqual(['GrpHdr.NbOfTxs', 'PmtInf[0].NbOfTxs']);
  });
});

describe('pain.001 element checks (strict where ISO 20022 is strict)', () => {
  const tx = 'PmtInf[1].CdtTrfTxInf[0]';
  it.each([
    [
      'amount with 6 fraction digits',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value = '15000.250001';
      },
      `${tx}.Amt.InstdAmt.value`,
      'must have at most 5 fraction digits',
    ],
    [
      'amount with 19 digits',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value = '12345678901234.56789';
      },
      `${tx}.Amt.InstdAmt.value`,
      'must have at most 18 digits in total',
    ],
    [
      'negative amount',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value = '-15000.25';
      },
      `${tx}.Amt.InstdAmt.value`,
      'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)',
    ],
    [
      'negative JSON number',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value = -5;
      },
      `${tx}.Amt.InstdAmt.value`,
      'must be sent as a decimal string such as "1250.50": this JSON number cannot be read exactly',
    ],
    [
      'zero amount',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value = '0.00';
      },
      `${tx}.Amt.InstdAmt.value`,
      'must be greater than 0',
    ],
    [
      'amount in exponent form',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value = '1.5e4';
      },
      `${tx}.Amt.InstdAmt.value`,
      'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)',
    ],
    [
      'a JSON number that lost digits',
      (i: any) => {
        // eslint-disable-next-line no-loss-of-precision -- a number JSON.parse rounds is the case under test
        i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value = 12345678901234567.8;
      },
      `${tx}.Amt.InstdAmt.value`,
      'must be sent as a decimal string such as "1250.50": this JSON number cannot be read exactly',
    ],
    [
      'amount as a boolean',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value = true;
      },
      `${tx}.Amt.InstdAmt.value`,
      'must be a decimal string such as "1250.50"',
    ],
    [
      'lower-case currency',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.Ccy = 'usd';
      },
      `${tx}.Amt.InstdAmt.Ccy`,
      'must be an ISO 4217 code of 3 capital letters',
    ],
    [
      'missing InstdAmt',
      (i: any) => {
        delete i.PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt;
      },
      `${tx}.Amt.InstdAmt`,
      'Invalid input: expected object, received undefined',
    ],
    [
      'EqvtAmt instead of InstdAmt',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Amt = { EqvtAmt: { Amt: { Ccy: 'USD', value: '1' }, CcyOfTrf: 'EUR' } };
      },
      `${tx}.Amt.EqvtAmt`,
      'an equivalent amount is not accepted: give the instructed amount in InstdAmt',
    ],
    [
      'EndToEndId of 36 characters',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].PmtId.EndToEndId = 'E'.repeat(36);
      },
      `${tx}.PmtId.EndToEndId`,
      'must be at most 35 characters',
    ],
    [
      'missing EndToEndId (mandatory in ISO: NOTPROVIDED is the way to give none)',
      (i: any) => {
        delete i.PmtInf[1].CdtTrfTxInf[0].PmtId.EndToEndId;
      },
      `${tx}.PmtId.EndToEndId`,
      'must be a string',
    ],
    [
      'creditor name of 141 characters',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Cdtr.Nm = 'N'.repeat(141);
      },
      `${tx}.Cdtr.Nm`,
      'must be at most 140 characters',
    ],
    [
      'blank creditor name',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Cdtr.Nm = '   ';
      },
      `${tx}.Cdtr.Nm`,
      'must not be blank',
    ],
    [
      'control character in a name',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Cdtr.Nm = 'Brunei\u0000Shell';
      },
      `${tx}.Cdtr.Nm`,
      'must not contain control characters',
    ],
    [
      'lower-case LEI',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].Cdtr.Id.OrgId.LEI = LEI.bruneiShell.toLowerCase();
      },
      `${tx}.Cdtr.Id.OrgId.LEI`,
      'must be an LEI: 18 capital letters or digits and 2 check digits',
    ],
    [
      'IBAN as creditor account',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].CdtrAcct = { Id: { IBAN: 'GB33BUKB20201555555555' } };
      },
      `${tx}.CdtrAcct.Id.IBAN`,
      'an IBAN cannot be settled on the rail: give the wallet address in Id.Othr.Id',
    ],
    [
      'wallet with a wrong EIP-55 checksum',
      (i: any) => {
        i.PmtInf[1].CdtTrfTxInf[0].CdtrAcct.Id.Othr.Id = '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9adB';
      },
      `${tx}.CdtrAcct.Id.Othr.Id`,
      'must be an EVM address (0x and 40 hex digits, EIP-55 checksum when mixed-case)',
    ],
    [
      'cheque payment method',
      (i: any) => {
        i.PmtInf[1].PmtMtd = 'CHK';
      },
      'PmtInf[1].PmtMtd',
      'must be TRF: only credit transfers settle on the rail (CHK and TRA are refused)',
    ],
    [
      'both Dt and DtTm',
      (i: any) => {
        i.PmtInf[1].ReqdExctnDt = { Dt: '2025-03-18', DtTm: '2025-03-18T08:00:00Z' };
      },
      'PmtInf[1].ReqdExctnDt',
      'must hold exactly one of Dt and DtTm',
    ],
    [
      '30 February',
      (i: any) => {
        i.PmtInf[0].ReqdExctnDt.Dt = '2025-02-30';
      },
      'PmtInf[0].ReqdExctnDt.Dt',
      'must be a day of the calendar',
    ],
    [
      'CreDtTm at 24:00',
      (i: any) => {
        i.GrpHdr.CreDtTm = '2025-03-14T24:00:00Z';
      },
      'GrpHdr.CreDtTm',
      'must be a date and time such as 2025-03-14T09:30:00Z',
    ],
    [
      'NbOfTxs as a number',
      (i: any) => {
        i.GrpHdr.NbOfTxs = 5;
      },
      'GrpHdr.NbOfTxs',
      'must be a string of digits',
    ],
    [
      'NbOfTxs of 16 digits',
      (i: any) => {
        i.GrpHdr.NbOfTxs = '0000000000000005';
      },
      'GrpHdr.NbOfTxs',
      'must be at most 15 digits',
    ],
    [
      'missing DbtrAcct (1..1 in ISO)',
      (i: any) => {
        delete i.PmtInf[0].DbtrAcct;
      },
      'PmtInf[0].DbtrAcct',
      'Invalid input: expected object, received undefined',
    ],
    [
      'missing GrpHdr',
      (i: any) => {
        delete i.GrpHdr;
      },
      'GrpHdr',
      'Invalid input: expected object, received undefined',
    ],
    [
      'an element ISO does not define',
      (i: any) => {
        i.PmtInf[0].CdtTrfTxInf[1].Cdtr.Wallet = '0x00';
      },
      'PmtInf[0].CdtTrfTxInf[1].Cdtr.Wallet',
      'is not an element of this message (unknown field)',
    ],
    [
      'an empty PmtInf array',
      (i: any) => {
        i.PmtInf = [];
      },
      'PmtInf',
      'must hold at least one of payment information blocks',
    ],
  ])('%s', (_name, change, path, message) => {
    expect(issuesOf(alteredDocument(change))).toContainEqual({ path, message });
  });

  it('counts Max35Text in characters, not UTF-16 units: 35 emoji are a valid EndToEndId, 36 are not', () => {
    const thirtyFive = '💶'.repeat(35); // 70 UTF-16 units
    const ok = mappingOf(
      alteredDocument((i) => {
        i.PmtInf[1].CdtTrfTxInf[0].PmtId.EndToEndId = thirtyFive;
      }),
    );
    expect(ok.transfers[2]?.payment.tmsReference).toBe(thirtyFive);
    expect(
      issuesOf(
        alteredDocument((i) => {
          i.PmtInf[1].CdtTrfTxInf[0].PmtId.EndToEndId = `${thirtyFive}💶`;
        }),
      ),
    ).toContainEqual({ path: `${tx}.PmtId.EndToEndId`, message: 'must be at most 35 characters' });
  });

  it('reads 1e309 (Infinity after JSON.parse) as an amount it cannot read, with its path', () => {
    const text = PAIN001_TEXT.replace('"value": "15000.25"', '"value": 1e309');
    expect(issuesOf(JSON.parse(text))).toContainEqual({ path: `${tx}.Amt.InstdAmt.value`, message: 'must be a decimal string such as "1250.50"' });
  });

  it('refuses __proto__ and constructor members built by hand in the JSON text, and nothing is polluted', () => {
    const hostile = PAIN001_TEXT.replace('"MsgId":', '"__proto__": { "polluted": true }, "MsgId":').replace(
      '"PmtId": { "EndToEndId": "E2E-BSP-FEE-7" }',
      '"PmtId": { "EndToEndId": "E2E-BSP-FEE-7", "constructor": { "prototype": { "polluted": true } } }',
    );
    const body = JSON.parse(hostile);
    expect(issuesOf(body)).toEqual([
      { path: 'GrpHdr.__proto__', message: 'is not an element of this message (unknown field)' },
      { path: 'PmtInf[1].CdtTrfTxInf[2].PmtId.constructor', message: 'is not an element of this message (unknown field)' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does not take a Document inherited through __proto__ for a pain.001', () => {
    const body = JSON.parse(`{ "__proto__": { "Document": {} }, "tmsReference": "X" }`);
    expect(isPain001Body(body)).toBe(false);
    expect(issuesOf(body)).toContainEqual({ path: '__proto__', message: 'is not an element of this message (unknown field)' });
  });

  it('bounds arrays before reading their elements: 100,000 PmtInf are refused with one issue', () => {
    const huge = alteredDocument((i) => {
      i.PmtInf = Array.from({ length: 100_000 }, () => ({}));
    });
    expect(issuesOf(huge)).toEqual([{ path: 'PmtInf', message: 'must hold at most 50 payment information blocks' }]);
  });

  it('refuses more than 50 transactions in one document, counted across PmtInf', () => {
    // 2 PmtInf x 26 transactions = 52 > 50, though each array is within its own bound.
    const many = alteredDocument((i) => {
      const transaction = i.PmtInf[1].CdtTrfTxInf[2];
      i.PmtInf = [0, 1].map((p) => ({ ...i.PmtInf[1], NbOfTxs: '26', CdtTrfTxInf: Array.from({ length: 26 }, (_, t) => ({ ...transaction, PmtId: { EndToEndId: `E2E-${p}-${t}` } })) }));
      i.GrpHdr.NbOfTxs = '52';
      delete i.GrpHdr.CtrlSum;
    });
    expect(issuesOf(many)).toEqual([{ path: 'PmtInf', message: 'holds 52 transactions; at most 50 are accepted in one document' }]);
  });

  it('refuses a huge string before splitting it', () => {
    expect(
      issuesOf(
        alteredDocument((i) => {
          i.GrpHdr.MsgId = 'M'.repeat(5_000_000);
        }),
      ),
    ).toEqual([{ path: 'GrpHdr.MsgId', message: 'must be at most 35 characters' }]);
  });
});

describe('the native payment body', () => {
  it('reads a full body; wallets in their EIP-55 form', () => {
    const read = readPaymentInitiation(nativePaymentBody());
    expect(read).toEqual({
      ok: true,
      value: {
        kind: 'native',
        payment: {
          ...nativePaymentBody(),
          creditor: { name: 'MAXRETS VENTURES PLC', lei: LEI.maxrets, walletAddress: WALLET.maxrets.checksum, accountRef: 'AP-4471' },
          debtor: { name: 'SHELL PLC', lei: LEI.shellPlc, walletAddress: WALLET.treasuryEur.checksum },
        },
      },
    });
  });

  it('needs only reference, amount, currency, names and wallets; settlementAsset defaults to USDC', () => {
    const { tmsReference, amount, currency } = nativePaymentBody();
    const minimal = {
      tmsReference,
      amount,
      currency,
      creditor: { name: 'ROCA NETWORKS INC.', walletAddress: WALLET.roca.sent },
      debtor: { name: 'SHELL PLC', walletAddress: WALLET.treasuryEur.sent },
    };
    const read = readPaymentInitiation(minimal);
    expect(read.ok && read.value.kind === 'native' && read.value.payment.settlementAsset).toBe('USDC');
  });

  it.each([
    ['amount as a number', { amount: 2500 }, 'amount', 'must be a decimal string such as "1250.50"'],
    ['amount with 6 decimals', { amount: '1.000001' }, 'amount', 'must have at most 5 fraction digits'],
    ['settlement asset other than USDC', { settlementAsset: 'USDT' }, 'settlementAsset', 'must be USDC, the asset the rail settles in'],
    ['date not of the calendar', { requestedExecutionDate: '2025-13-01' }, 'requestedExecutionDate', 'must be a day of the calendar'],
    ['callback to a non-http scheme', { callbackUrl: 'ftp://treasury.example.com/x' }, 'callbackUrl', 'must be an http(s) URL: scheme must be http or https'],
    ['malformed quote id', { quoteId: 'quote-1' }, 'quoteId', 'must be a quote id srq-<digits>-<hex>'],
    ['unknown field', { priority: 'HIGH' }, 'priority', 'is not an element of this message (unknown field)'],
    ['tmsReference of 65 characters', { tmsReference: 'T'.repeat(65) }, 'tmsReference', 'must be at most 64 characters'],
    // The settlement agent's references (decision 0047): a caller could otherwise take a release's reference first.
    [
      "tmsReference of a held settlement's release",
      { tmsReference: 'AGT-HLD-hld_AAAAAAAAAAAAAAAAAAAAAA' },
      'tmsReference',
      "must not start with AGT- or AP2-: those references are the settlement agent's",
    ],
    ['tmsReference of an AP2 mandate', { tmsReference: 'AP2-abc' }, 'tmsReference', "must not start with AGT- or AP2-: those references are the settlement agent's"],
  ])('%s', (_name, change, path, message) => {
    expect(issuesOf({ ...nativePaymentBody(), ...change })).toContainEqual({ path, message });
  });

  it('names nested paths', () => {
    const body = { ...nativePaymentBody(), creditor: { name: 'X', walletAddress: '0x123' } };
    expect(issuesOf(body)).toEqual([{ path: 'creditor.walletAddress', message: 'must be an EVM address (0x and 40 hex digits, EIP-55 checksum when mixed-case)' }]);
  });

  it.each([
    ['null', null],
    ['an array', [nativePaymentBody()]],
    ['a string', 'pain.001'],
  ])('refuses a body that is %s', (_name, body) => {
    expect(issuesOf(body)).toEqual([{ path: '(body)', message: 'must be a JSON object: a native payment or a pain.001 document' }]);
  });
});

describe('the batch body', () => {
  const payments = (n: number): Array<Record<string, unknown>> => Array.from({ length: n }, (_, k) => ({ ...nativePaymentBody(), tmsReference: `TMS-BATCH-${k}` }));

  it('reads 50 payments in order', () => {
    const read = readBatch({ payments: payments(50) });
    expect(read.ok && read.value.map((payment) => payment.tmsReference)).toEqual(payments(50).map((payment) => payment.tmsReference));
  });

  it('refuses 51 payments without reading them', () => {
    expect(readBatch({ payments: payments(51) })).toEqual({ ok: false, issues: [{ path: 'payments', message: 'must hold at most 50 payments' }] });
  });

  it('refuses an empty batch and names a bad entry by its position', () => {
    expect(readBatch({ payments: [] })).toEqual({ ok: false, issues: [{ path: 'payments', message: 'must hold at least one of payments' }] });
    const batch = payments(3);
    batch[2] = { ...batch[2], amount: '-1' };
    expect(readBatch({ payments: batch })).toEqual({
      ok: false,
      issues: [{ path: 'payments[2].amount', message: 'must be an unsigned decimal such as 1250.50 (digits, optionally a point and digits)' }],
    });
  });

  it('is a schema the routes can use as it is', () => {
    expect(batchBodySchema.safeParse({ payments: payments(1), extra: 1 }).success).toBe(false);
  });
});

describe('jsonPathOf', () => {
  it.each([
    [['Document', 'CstmrCdtTrfInitn', 'PmtInf', 1, 'CdtTrfTxInf', 0, 'Amt', 'InstdAmt', 'value'], 'PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value'],
    [['Document', 'CstmrCdtTrfInitn'], 'Document.CstmrCdtTrfInitn'],
    [['payments', 3, 'creditor', 'lei'], 'payments[3].creditor.lei'],
    [[], ''],
  ])('%j -> %s', (path, expected) => {
    expect(jsonPathOf(path)).toBe(expected);
  });
});

describe('bounds are checked first (one issue for an oversized value, nothing else read)', () => {
  it.each([
    ['creditor.lei', { creditor: { name: 'X', walletAddress: WALLET.maxrets.sent, lei: 'L'.repeat(100_000) } }, 'must be an LEI: 20 characters'],
    ['currency', { currency: 'E'.repeat(100_000) }, 'must be an ISO 4217 code of 3 capital letters'],
    ['requestedExecutionDate', { requestedExecutionDate: '2'.repeat(100_000) }, 'must be a date YYYY-MM-DD'],
    ['amount', { amount: '1'.repeat(100_000) }, 'must be at most 64 characters'],
    ['callbackUrl', { callbackUrl: `https://a.example/${'x'.repeat(100_000)}` }, 'must be at most 2048 characters'],
  ])('%s', (path, change, message) => {
    expect(issuesOf({ ...nativePaymentBody(), ...change })).toEqual([{ path, message }]);
  });
});
