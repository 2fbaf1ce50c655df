import { randomBytes } from 'node:crypto';
import { type Address, getAddress } from 'viem';
import { railUSDAbi } from '../../../contracts/artifacts/RailUSD.js';
import type { ChainConnection } from '../../../platform/chain/index.js';
import { startTestServer, type TestServer } from '../../../test/helpers.js';
import { EMBEDDED_TREASURY_ACCOUNT_INDEX } from '../rail/settlement.js';

// Test support of the integration family (not a test file itself): the server harness the route
// tests share, and the ISO 20022 documents the body readers' tests read.

/**
 * Test-only: the all-in-one server (compliance, fees and payments in one process) with an admin
 * key, the embedded rail and an institution bearer key, and the calls the integration tests make.
 */

export interface IntegrationHarness {
  server: TestServer;
  rail: ChainConnection;
  /** Authorization header of an institution bearer key (1,000 per minute). */
  bearer: Record<string, string>;
  admin: Record<string, string>;
  call(method: 'GET' | 'POST', url: string, options?: { payload?: unknown; headers?: Record<string, string>; raw?: string }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  balanceOf(address: Address): Promise<bigint>;
  treasury(): Address;
  close(): Promise<void>;
}

export const freshWallet = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

/** `gateway`: every subgraph and the gateway's /graphql (the default is compliance, fees and payments without it). */
export async function startIntegrationHarness(adminKey: string, options: { gateway?: boolean } = {}): Promise<IntegrationHarness> {
  const server = await startTestServer({ ...(options.gateway ? {} : { subgraphs: ['compliance', 'fees', 'payments'] }), environment: { ADMIN_KEY: adminKey } });
  const rail = await server.platform!.chain.connect();
  const bearer = { authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'treasury desk', 1000)).key}` };
  return {
    server,
    rail,
    bearer,
    admin: { authorization: `Bearer ${adminKey}` },
    async call(method, url, options = {}) {
      const response = await server.app.inject({
        method,
        url,
        headers: { ...(options.raw !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
        ...(options.raw !== undefined ? { payload: options.raw } : options.payload !== undefined ? { payload: options.payload as object } : {}),
      });
      return { status: response.statusCode, body: response.json(), headers: response.headers };
    },
    balanceOf: (address) => rail.publicClient.readContract({ address: rail.contracts.token!, abi: railUSDAbi, functionName: 'balanceOf', args: [address] }),
    treasury: () => rail.embedded!.accounts[EMBEDDED_TREASURY_ACCOUNT_INDEX]!.address,
    close: () => server.close(),
  };
}

/**
 * Test-only: a pain.001.001.09 document as a treasury system would send it (two PmtInf, five
 * CdtTrfTxInf, ISO elements the rail does not read among them), written as JSON TEXT so tests parse
 * it the way the server does. LEIs are real GLEIF records of the shipped snapshot
 * (subgraphs/compliance/data/lei/lei_records.json); wallet addresses are the EIP-55 test vectors.
 */

export const LEI = {
  /** SHELL PLC (GB), ISSUED. */
  shellPlc: '21380068P1DRHMJ8KU70',
  /** MAXRETS VENTURES PLC (GB), ISSUED. */
  maxrets: '213800E5Z6QRDSMZMK84',
  /** ROCA NETWORKS INC. (CA-ON), ISSUED. */
  rocaNetworks: '254900MSZM6DMP853B11',
  /** Brunei Shell Petroleum Company Sendirian Berhad (BN), ISSUED. */
  bruneiShell: '254900O9AGY62PYKHO98',
  /** SHELL ENERGY PHILIPPINES, INC. (PH), ISSUED. */
  shellPhilippines: '213800HWMZMN3KCGN612',
  /** Popular Bank (US): a creditor agent. */
  popularBank: '549300E0WPRCJMXMUM09',
} as const;

/** Each wallet as written in the document, and in its EIP-55 form (what the mapping returns). */
export const WALLET = {
  treasuryEur: { sent: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', checksum: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
  treasuryUsd: { sent: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', checksum: '0x8617E340B3D01FA5F11F306F4090FD50E238070D' },
  maxrets: { sent: '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359', checksum: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' },
  roca: { sent: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', checksum: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB' },
  brunei: { sent: '0xd1220a0cf47c7b9be7a2e6ba89f429762e7b9adb', checksum: '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb' },
  philippines: { sent: '0x52908400098527886E0F7030069857D2E4169EE7', checksum: '0x52908400098527886E0F7030069857D2E4169EE7' },
} as const;

/**
 * PmtInf[0] (EUR, 2 transactions): 1250.50 + 98000 = 99250.50.
 * PmtInf[1] (3 transactions, mixed currencies): 15000.25 USD + 730.10000 GBP + 42 USD = 15772.35.
 * CtrlSum (irrespective of currencies): 99250.50 + 15772.35 = 115022.85.
 */
export const PAIN001_TEXT = `{
  "Document": {
    "CstmrCdtTrfInitn": {
      "GrpHdr": {
        "MsgId": "SHELL-TRY-20250314-0001",
        "CreDtTm": "2025-03-14T09:30:00+00:00",
        "NbOfTxs": "5",
        "CtrlSum": "115022.85",
        "InitgPty": { "Nm": "Shell plc Group Treasury", "Id": { "OrgId": { "LEI": "${LEI.shellPlc}" } } }
      },
      "PmtInf": [
        {
          "PmtInfId": "PMT-EUR-0314-A",
          "PmtMtd": "TRF",
          "BtchBookg": false,
          "NbOfTxs": "2",
          "CtrlSum": 99250.5,
          "PmtTpInf": { "SvcLvl": { "Cd": "URGP" } },
          "ReqdExctnDt": { "Dt": "2025-03-17" },
          "Dbtr": { "Nm": "SHELL PLC", "PstlAdr": { "Ctry": "GB" }, "Id": { "OrgId": { "LEI": "${LEI.shellPlc}" } } },
          "DbtrAcct": { "Id": { "Othr": { "Id": "${WALLET.treasuryEur.sent}", "SchmeNm": { "Prtry": "EVM" } } } },
          "DbtrAgt": { "FinInstnId": { "LEI": "${LEI.popularBank}" } },
          "ChrgBr": "SLEV",
          "CdtTrfTxInf": [
            {
              "PmtId": { "InstrId": "INSTR-0001", "EndToEndId": "E2E-MAXRETS-INV-88121" },
              "Amt": { "InstdAmt": { "Ccy": "EUR", "value": "1250.50" } },
              "Cdtr": { "Nm": "MAXRETS VENTURES PLC", "Id": { "OrgId": { "LEI": "${LEI.maxrets}" } } },
              "CdtrAcct": { "Id": { "Othr": { "Id": "${WALLET.maxrets.sent}" } } },
              "RmtInf": { "Ustrd": "Invoice 88121 March services" }
            },
            {
              "PmtId": { "EndToEndId": "E2E-ROCA-PO-5531" },
              "Amt": { "InstdAmt": { "Ccy": "EUR", "value": 98000 } },
              "CdtrAgt": { "FinInstnId": { "LEI": "${LEI.popularBank}" } },
              "Cdtr": { "Nm": "ROCA NETWORKS INC.", "Id": { "OrgId": { "LEI": "${LEI.rocaNetworks}" } } },
              "CdtrAcct": { "Id": { "Othr": { "Id": "${WALLET.roca.sent}" } } },
              "Purp": { "Cd": "SUPP" },
              "RmtInf": { "Ustrd": ["PO 5531", "Network equipment, second instalment"] }
            }
          ]
        },
        {
          "PmtInfId": "PMT-MIX-0314-B",
          "PmtMtd": "TRF",
          "NbOfTxs": "3",
          "ReqdExctnDt": { "DtTm": "2025-03-18T08:00:00+08:00" },
          "Dbtr": { "Nm": "SHELL PLC" },
          "DbtrAcct": { "Id": { "Othr": { "Id": "${WALLET.treasuryUsd.sent}" } } },
          "CdtTrfTxInf": [
            {
              "PmtId": { "EndToEndId": "E2E-BSP-2025-Q1" },
              "Amt": { "InstdAmt": { "Ccy": "USD", "value": "15000.25" } },
              "Cdtr": { "Nm": "Brunei Shell Petroleum Company Sendirian Berhad", "Id": { "OrgId": { "LEI": "${LEI.bruneiShell}" } } },
              "CdtrAcct": { "Id": { "Othr": { "Id": "${WALLET.brunei.sent}" } } }
            },
            {
              "PmtId": { "EndToEndId": "NOTPROVIDED" },
              "Amt": { "InstdAmt": { "Ccy": "GBP", "value": "730.10000" } },
              "CdtrAgt": { "FinInstnId": { "LEI": "${LEI.popularBank}", "Nm": "Popular Bank" } },
              "Cdtr": { "Nm": "Shell Energy Philippines, Inc." },
              "CdtrAcct": { "Id": { "Othr": { "Id": "${WALLET.philippines.sent}" } } },
              "RmtInf": { "Ustrd": "Fuel supply Feb 2025" }
            },
            {
              "PmtId": { "EndToEndId": "E2E-BSP-FEE-7" },
              "Amt": { "InstdAmt": { "Ccy": "USD", "value": "42" } },
              "Cdtr": { "Nm": "Brunei Shell Petroleum Company Sendirian Berhad" },
              "CdtrAcct": { "Id": { "Othr": { "Id": "${WALLET.brunei.sent}" } } }
            }
          ]
        }
      ]
    }
  }
}`;

/** A fresh parsed copy of the document, to alter in a test. */
export function pain001Document(): Record<string, unknown> {
  return JSON.parse(PAIN001_TEXT) as Record<string, unknown>;
}

/** A valid native payment body (spec §2). */
export function nativePaymentBody(): Record<string, unknown> {
  return {
    tmsReference: 'TMS-2025-03-14-000917',
    amount: '2500.00',
    currency: 'EUR',
    settlementAsset: 'USDC',
    creditor: { name: 'MAXRETS VENTURES PLC', lei: LEI.maxrets, walletAddress: WALLET.maxrets.sent, accountRef: 'AP-4471' },
    debtor: { name: 'SHELL PLC', lei: LEI.shellPlc, walletAddress: WALLET.treasuryEur.sent },
    remittanceInfo: 'Invoice 88140',
    requestedExecutionDate: '2025-03-17',
    callbackUrl: 'https://treasury.example.com/hooks/rail',
  };
}
