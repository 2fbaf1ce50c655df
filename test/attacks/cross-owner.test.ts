import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type Address, encodeFunctionData, type Hex, parseUnits, type SignedAuthorization, toHex } from 'viem';
import { generatePrivateKey, mnemonicToAccount, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { railUSDAbi } from '../../contracts/artifacts/RailUSD.js';
import { RAIL_TOKEN_NAME, RAIL_TOKEN_VERSION } from '../../contracts/deploy.js';
import { DEVELOPMENT_MNEMONIC } from '../../platform/chain/embedded-chain.js';
import { agentHeaders } from '../../subgraphs/payments/agent/testing.js';
import { freshWallet } from '../../subgraphs/payments/integration/testing.js';
import { EMBEDDED_TREASURY_ACCOUNT_INDEX } from '../../subgraphs/payments/rail/settlement.js';
import { ACTIVE_LEI_ENTRY } from '../fixtures/lei-entries.js';
import { testDatabases } from '../helpers.js';
import { type Answer, type AttackWorld, INTERNAL_KEY, openAttackWorld } from './cross-owner-world.js';

// Issue 21, acceptance: an attacker suite against ONE running server (the all-in-one server: the
// gateway's /graphql, every subgraph's endpoint, the REST prefixes, the MCP endpoint on a real
// port, /rpc) with two institutions (A with two desks' keys, B with one) and two agent owners
// (agents X and Y, each funded with a deposit), and the admin key. A and X get real data first
// (cross-owner-world.ts): A's payments settled by REST, the batch path and MCP; X's funding
// wallet, its deposit, a settlement under an Idempotency-Key, a held settlement, and a transfer of
// X's owner to the treasury not yet credited. Then B, Y, A (against X), an X-API-Key and nobody
// try every cross-owner read and write of REST, GraphQL and MCP (decisions 0048, 0049, 0050), each
// refused with its documented status and error shape, or answered exactly as a missing thing; the
// owners' own calls are the controls. Afterwards nothing moved: balances, funds, rows, blocks, X's
// mandate and status, A's payment, X's hold. Last, what B and Y may do with A's references and X's
// Idempotency-Key (their own payments, never A's or X's) is shown apart, after the no-funds check,
// since those are real payments. Run on PGlite, and on PostgreSQL when DATABASE_URL is set.

const MISSING_PAYMENT = 'pay_00000000-0000-4000-8000-000000000000';

describe.each(testDatabases())('cross-owner attacks on one server ($driver)', (database) => {
  let w: AttackWorld;

  beforeAll(async () => {
    w = await openAttackWorld(database);
  }, 600_000);
  afterAll(async () => {
    await w?.close();
  });

  // ---- Expected refusals -------------------------------------------------------------------
  const unauthorized = (code: string): Answer => ({ status: 401, body: { error: expect.any(String), code } });
  /** What a caller gets for a payment that does not exist: a stranger's must read exactly so. */
  const missingPaymentFor = (headers: () => Record<string, string>) => async (): Promise<Answer> => w.rest('GET', `/integration/payments/${MISSING_PAYMENT}`, headers());
  /** A GraphQL refusal: the catalog's status (401 for these codes), the field null, one error carrying the code. */
  const graphqlRefusal = (field: string, code: string): Answer => ({
    status: 401,
    body: { data: { [field]: null }, errors: [expect.objectContaining({ message: expect.any(String), extensions: expect.objectContaining({ code }) })] },
  });

  interface Attempt {
    name: string;
    send: () => Promise<Answer>;
    refused: () => Answer | Promise<Answer>;
  }

  // ---- Who attacks ----------------------------------------------------------------------------
  const X = () => w.agentX.agentId;
  /** Those who are not X's owner, each naming X as the agent. */
  const notXsOwner: Array<[string, () => Record<string, string>]> = [
    ["Y's key", () => agentHeaders(X(), w.agentY.agentKey)],
    ["A's bearer key", () => ({ ...w.deskA1, 'x-agent-id': X() })],
    ["B's bearer key", () => ({ ...w.bankB, 'x-agent-id': X() })],
    ['the admin key (it is not the owner)', () => ({ ...w.admin, 'x-agent-id': X() })],
    ["X's id alone", () => ({ 'x-agent-id': X() })],
    ['no header at all', () => ({})],
  ];
  /** Those who are not the operator, for the admin-only paths: the owner X itself included. */
  const notTheAdmin: Array<[string, () => Record<string, string>]> = [
    ["Y's key", () => w.agentY.headers],
    ["X's own key", () => w.agentX.headers],
    ["A's bearer key", () => w.deskA1],
    ["B's bearer key", () => w.bankB],
    ['no key', () => ({})],
  ];
  /** Those who are not institution A, for A's payments. */
  const notInstitutionA: Array<[string, () => Record<string, string>]> = [
    ["B's bearer key", () => w.bankB],
    ["Y's agent key", () => w.agentY.headers],
    ['an X-API-Key (a paid-route key, no institution)', () => w.apiKey],
    ['no key', () => ({})],
  ];
  const unauthenticated = notInstitutionA.filter(([who]) => who !== "B's bearer key");

  // ---- REST reads of A's payments and X's settlements -----------------------------------------
  const restReads: Attempt[] = [
    ...(
      [
        ["A's payment by railPaymentId", () => `/integration/payments/${w.paidA.railPaymentId}`],
        ["A's payment by tmsReference", () => `/integration/payments?tmsReference=${w.paidA.tmsReference}`],
        ["A's payment by tmsReference naming A's institution", () => `/integration/payments?tmsReference=${w.paidA.tmsReference}&institution=${w.institutionA}`],
        ["A's first batch payment by railPaymentId", () => `/integration/payments/${w.batchA[0]!.railPaymentId}`],
        ["A's second batch payment by tmsReference", () => `/integration/payments?tmsReference=${w.batchA[1]!.tmsReference}`],
        ["X's settlement by railPaymentId", () => `/integration/payments/${w.settledX}`],
      ] as Array<[string, () => string]>
    ).flatMap(([what, url]) => [
      { name: `REST: B reads ${what}: 404 exactly as a missing payment`, send: () => w.rest('GET', url(), w.bankB), refused: missingPaymentFor(() => w.bankB) },
      ...unauthenticated.map(([who, headers]) => ({ name: `REST: ${who} reads ${what}: 401`, send: () => w.rest('GET', url(), headers()), refused: () => unauthorized('GEN_ERR_UNAUTHORIZED') })),
    ]),
    {
      name: "REST: A reads X's settlement (an agent's settlement is no institution's): 404 as missing",
      send: () => w.rest('GET', `/integration/payments/${w.settledX}`, w.deskA1),
      refused: missingPaymentFor(() => w.deskA1),
    },
  ];

  // ---- GraphQL reads --------------------------------------------------------------------------
  const PAYMENT = 'query ($id: ID!) { payment(railPaymentId: $id) { railPaymentId settlement { amount } } }';
  const BY_REFERENCE = 'query ($ref: String!, $institution: String) { paymentByTmsReference(tmsReference: $ref, institution: $institution) { railPaymentId } }';
  const ENTITIES = (fragment: string) => `query ($r: [_Any!]!) { _entities(representations: $r) { ${fragment} } }`;
  const graphqlReads: Attempt[] = [
    ...['/graphql', '/subgraphs/payments/graphql'].flatMap((path): Attempt[] => [
      {
        name: `GraphQL ${path}: B asks payment(A's id): null`,
        send: () => w.graphql(path, PAYMENT, { id: w.paidA.railPaymentId }, w.bankB),
        refused: () => ({ status: 200, body: { data: { payment: null } } }),
      },
      {
        name: `GraphQL ${path}: B asks payment(A's batch payment): null`,
        send: () => w.graphql(path, PAYMENT, { id: w.batchA[0]!.railPaymentId }, w.bankB),
        refused: () => ({ status: 200, body: { data: { payment: null } } }),
      },
      {
        name: `GraphQL ${path}: B asks payment(X's settlement): null`,
        send: () => w.graphql(path, PAYMENT, { id: w.settledX }, w.bankB),
        refused: () => ({ status: 200, body: { data: { payment: null } } }),
      },
      {
        name: `GraphQL ${path}: B asks paymentByTmsReference(A's reference): null`,
        send: () => w.graphql(path, BY_REFERENCE, { ref: w.paidA.tmsReference }, w.bankB),
        refused: () => ({ status: 200, body: { data: { paymentByTmsReference: null } } }),
      },
      {
        name: `GraphQL ${path}: B asks paymentByTmsReference(A's reference, institution: A): null`,
        send: () => w.graphql(path, BY_REFERENCE, { ref: w.paidA.tmsReference, institution: w.institutionA }, w.bankB),
        refused: () => ({ status: 200, body: { data: { paymentByTmsReference: null } } }),
      },
      ...unauthenticated.map(([who, headers]) => ({
        name: `GraphQL ${path}: ${who} asks payment(A's id): GEN_ERR_UNAUTHORIZED`,
        send: () => w.graphql(path, PAYMENT, { id: w.paidA.railPaymentId }, headers()),
        refused: () => graphqlRefusal('payment', 'GEN_ERR_UNAUTHORIZED'),
      })),
    ]),
    {
      name: "GraphQL /graphql: B lists Wallet.payments of A's creditor: none of A's",
      send: () => w.graphql('/graphql', 'query ($a: String!) { wallet(address: $a) { payments { railPaymentId } } }', { a: w.creditor }, w.bankB),
      refused: () => ({ status: 200, body: { data: { wallet: { payments: [] } } } }),
    },
    {
      name: "GraphQL /graphql: B lists LegalEntity.payments of A's creditor's LEI: none of A's",
      send: () => w.graphql('/graphql', 'query ($l: String!) { legalEntity(lei: $l) { payments { railPaymentId } } }', { l: ACTIVE_LEI_ENTRY.lei }, w.bankB),
      refused: () => ({ status: 200, body: { data: { legalEntity: { payments: [] } } } }),
    },
    ...(
      [
        ['B', () => w.bankB],
        ['A', () => w.deskA1],
      ] as Array<[string, () => Record<string, string>]>
    ).map(([who, headers]) => ({
      name: `GraphQL /graphql: ${who} lists Agent.settlements of X: none`,
      send: () => w.graphql('/graphql', 'query ($id: ID!) { agent(id: $id) { settlements { railPaymentId } } }', { id: X() }, headers()),
      refused: () => ({ status: 200, body: { data: { agent: { settlements: [] } } } }),
    })),
    {
      name: "GraphQL /subgraphs/payments/graphql: B resolves A's Payment entity: null",
      send: () => w.graphql('/subgraphs/payments/graphql', ENTITIES('... on Payment { railPaymentId }'), { r: [{ __typename: 'Payment', railPaymentId: w.paidA.railPaymentId }] }, w.bankB),
      refused: () => ({ status: 200, body: { data: { _entities: [null] } } }),
    },
    {
      name: "GraphQL /subgraphs/payments/graphql: B resolves the Wallet, LegalEntity and Agent entities' lists: none of A's or X's",
      send: () =>
        w.graphql(
          '/subgraphs/payments/graphql',
          ENTITIES('... on Wallet { payments { railPaymentId } } ... on LegalEntity { payments { railPaymentId } } ... on Agent { settlements { railPaymentId } }'),
          {
            r: [
              { __typename: 'Wallet', address: w.creditor.toLowerCase() },
              { __typename: 'LegalEntity', lei: ACTIVE_LEI_ENTRY.lei },
              { __typename: 'Agent', id: X() },
            ],
          },
          w.bankB,
        ),
      refused: () => ({ status: 200, body: { data: { _entities: [{ payments: [] }, { payments: [] }, { settlements: [] }] } } }),
    },
  ];

  // ---- Writes on X: mandate, revocation, settlement, funds -----------------------------------
  const SET_MANDATE = 'mutation ($input: SetMandateInput!) { setMandate(input: $input) { agentId maxNotionalUsd } }';
  const REVOKE = 'mutation ($id: ID!) { revokeAgent(id: $id) { status } }';
  const raisedMandate = () => ({ agentId: X(), maxNotionalUsd: 25_000, dailyCapUsd: 25_000 });
  const xWrites: Array<[string, (headers: Record<string, string>) => Promise<Answer>, Answer]> = [
    ["REST: raise X's mandate (POST /compliance/agent/mandate)", (headers) => w.rest('POST', '/compliance/agent/mandate', headers, raisedMandate()), unauthorized('CMP_ERR_AGENT_UNAUTHORIZED')],
    ['REST: revoke X (DELETE /compliance/agent/:id)', (headers) => w.rest('DELETE', `/compliance/agent/${X()}`, headers), unauthorized('CMP_ERR_AGENT_UNAUTHORIZED')],
    ...['/graphql', '/subgraphs/compliance/graphql'].flatMap((path): Array<[string, (headers: Record<string, string>) => Promise<Answer>, Answer]> => [
      [`GraphQL ${path}: setMandate for X`, (headers) => w.graphql(path, SET_MANDATE, { input: raisedMandate() }, headers), graphqlRefusal('setMandate', 'CMP_ERR_AGENT_UNAUTHORIZED')],
      [`GraphQL ${path}: revokeAgent(X)`, (headers) => w.graphql(path, REVOKE, { id: X() }, headers), graphqlRefusal('revokeAgent', 'CMP_ERR_AGENT_UNAUTHORIZED')],
    ]),
    [
      'REST: settle as X to the attacker (POST /agent/settle)',
      (headers) => w.rest('POST', '/agent/settle', headers, { amount: 900, sourceCurrency: 'USD', destinationCurrency: 'USDC', recipientAddress: w.attackerRecipient }),
      unauthorized('PAY_ERR_AGENT_UNAUTHORIZED'),
    ],
    ["REST: read X's funds (GET /agent/funds)", (headers) => w.rest('GET', '/agent/funds', headers), unauthorized('PAY_ERR_AGENT_UNAUTHORIZED')],
    [
      "REST: bind the attacker's wallet to X, validly signed (POST /agent/funding-wallets)",
      (headers) => w.rest('POST', '/agent/funding-wallets', headers, { walletAddress: w.strangerWallet.address, signature: w.strangerSignatureForX }),
      unauthorized('PAY_ERR_AGENT_UNAUTHORIZED'),
    ],
    [
      "REST: credit X's owner's uncredited transfer to X (POST /agent/deposits)",
      (headers) => w.rest('POST', '/agent/deposits', headers, { txHash: w.pendingDepositX }),
      unauthorized('PAY_ERR_AGENT_UNAUTHORIZED'),
    ],
  ];
  const agentWrites: Attempt[] = [
    ...xWrites.flatMap(([what, send, refusal]) => notXsOwner.map(([who, headers]) => ({ name: `${what} with ${who}`, send: () => send(headers()), refused: () => refusal }))),
    // Y with its own id and key, aiming at X.
    {
      name: "REST: Y's own id and key name X in the mandate body",
      send: () => w.rest('POST', '/compliance/agent/mandate', w.agentY.headers, raisedMandate()),
      refused: () => unauthorized('CMP_ERR_AGENT_UNAUTHORIZED'),
    },
    { name: "REST: Y's own id and key revoke X", send: () => w.rest('DELETE', `/compliance/agent/${X()}`, w.agentY.headers), refused: () => unauthorized('CMP_ERR_AGENT_UNAUTHORIZED') },
    {
      name: "REST: Y credits X's uncredited transfer to Y: 400 PAY_ERR_DEPOSIT_INVALID",
      send: () => w.rest('POST', '/agent/deposits', w.agentY.headers, { txHash: w.pendingDepositX }),
      refused: () => ({ status: 400, body: { error: expect.any(String), code: 'PAY_ERR_DEPOSIT_INVALID' } }),
    },
    {
      name: "REST: Y credits X's credited deposit to Y: 400 PAY_ERR_DEPOSIT_INVALID",
      send: () => w.rest('POST', '/agent/deposits', w.agentY.headers, { txHash: w.depositX }),
      refused: () => ({ status: 400, body: { error: expect.any(String), code: 'PAY_ERR_DEPOSIT_INVALID' } }),
    },
    {
      name: "REST: Y binds X's funding wallet to Y with X's wallet signature replayed: 400 PAY_ERR_FUNDING_WALLET_INVALID",
      send: () => w.rest('POST', '/agent/funding-wallets', w.agentY.headers, { walletAddress: w.walletX.address, signature: w.walletXSignatureForX }),
      refused: () => ({ status: 400, body: { error: expect.any(String), code: 'PAY_ERR_FUNDING_WALLET_INVALID' } }),
    },
    ...notXsOwner.map(([who, headers]) => ({
      name: `REST: replay X's settlement under X's Idempotency-Key with ${who}: 401, X's answer not revealed`,
      send: () => w.rest('POST', '/agent/settle', { ...headers(), 'idempotency-key': w.idempotencyKeyX }, w.settleBodyX),
      refused: () => unauthorized('PAY_ERR_AGENT_UNAUTHORIZED'),
    })),
    {
      name: "REST: Y asks whether a key is X's (POST /compliance/agent/:id/authorize, internal): 401",
      send: () => w.rest('POST', `/compliance/agent/${X()}/authorize`, w.agentY.headers, { agentKey: w.agentY.agentKey }),
      refused: () => unauthorized('GEN_ERR_UNAUTHORIZED'),
    },
    {
      name: "REST: B asks with X's real key whether it is X's (internal): 401, nothing confirmed",
      send: () => w.rest('POST', `/compliance/agent/${X()}/authorize`, w.bankB, { agentKey: w.agentX.agentKey }),
      refused: () => unauthorized('GEN_ERR_UNAUTHORIZED'),
    },
  ];

  // ---- The operator's paths: held settlements, the wallet registry, AML ----------------------
  const adminPaths: Array<[string, () => Promise<Record<string, string>> | Record<string, string>, (headers: Record<string, string>) => Promise<Answer>]> = [
    ['GET /agent/holds?agentId=X', () => ({}), (headers) => w.rest('GET', `/agent/holds?agentId=${X()}`, headers)],
    ["GET /agent/holds/:holdId (X's hold)", () => ({}), (headers) => w.rest('GET', `/agent/holds/${w.holdX}`, headers)],
    ["POST /agent/holds/:holdId/release (X's hold)", () => ({}), (headers) => w.rest('POST', `/agent/holds/${w.holdX}/release`, headers, {})],
    ["POST /agent/holds/:holdId/dismiss (X's hold)", () => ({}), (headers) => w.rest('POST', `/agent/holds/${w.holdX}/dismiss`, headers, {})],
    [
      "POST /compliance/register: A's creditor's wallet re-registered to another name",
      () => ({}),
      (headers) => w.rest('POST', '/compliance/register', headers, { walletAddress: w.creditor, legalName: 'Mallory Trading Ltd' }),
    ],
    ["DELETE /compliance/register/:wallet (A's creditor)", () => ({}), (headers) => w.rest('DELETE', `/compliance/register/${w.creditor}`, headers)],
  ];
  const operatorPaths: Attempt[] = [
    ...adminPaths.flatMap(([what, , send]) =>
      notTheAdmin.map(([who, headers]) => ({ name: `REST: ${what} with ${who}: 401 (admin only)`, send: () => send(headers()), refused: () => unauthorized('GEN_ERR_UNAUTHORIZED') })),
    ),
    ...notTheAdmin.flatMap(([who, headers]): Attempt[] => [
      {
        name: `GraphQL /graphql: registerWallet(A's creditor, another name) with ${who}: GEN_ERR_UNAUTHORIZED`,
        send: () =>
          w.graphql(
            '/graphql',
            'mutation ($input: RegisterWalletInput!) { registerWallet(input: $input) { walletAddress } }',
            { input: { walletAddress: w.creditor, legalName: 'Mallory Trading Ltd' } },
            headers(),
          ),
        refused: () => graphqlRefusal('registerWallet', 'GEN_ERR_UNAUTHORIZED'),
      },
      {
        name: `GraphQL /subgraphs/compliance/graphql: deregisterWallet(A's creditor) with ${who}: GEN_ERR_UNAUTHORIZED`,
        send: () => w.graphql('/subgraphs/compliance/graphql', 'mutation ($a: String!) { deregisterWallet(address: $a) { walletAddress } }', { a: w.creditor }, headers()),
        refused: () => graphqlRefusal('deregisterWallet', 'GEN_ERR_UNAUTHORIZED'),
      },
    ]),
    ...notInstitutionA.flatMap(([who, headers]): Attempt[] => [
      {
        name: `REST: GET /compliance/aml/profile of A's debtor with ${who}: 401 (internal)`,
        send: () => w.rest('GET', `/compliance/aml/profile/${w.paymentA.debtor.walletAddress}`, headers()),
        refused: () => unauthorized('GEN_ERR_UNAUTHORIZED'),
      },
      {
        name: `REST: POST /compliance/aml/screen of A's payment with ${who}: 401 (internal)`,
        send: () =>
          w.rest('POST', '/compliance/aml/screen', headers(), {
            wallet: w.paymentA.debtor.walletAddress,
            counterparty: w.creditor,
            amount: 1,
            currency: 'USD',
            paymentId: w.paidA.railPaymentId,
            direction: 'SEND',
          }),
        refused: () => unauthorized('GEN_ERR_UNAUTHORIZED'),
      },
      {
        name: `REST: GET /compliance/aml/events of A's debtor with ${who}: 401 (internal)`,
        send: () => w.rest('GET', `/compliance/aml/events/${w.paymentA.debtor.walletAddress}`, headers()),
        refused: () => unauthorized('GEN_ERR_UNAUTHORIZED'),
      },
    ]),
  ];

  // ---- /rpc: nobody sends or signs as the rail's accounts --------------------------------------
  const rpc = async (method: string, params: unknown[], headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await w.server.app.inject({ method: 'POST', url: '/rpc', headers, payload: { jsonrpc: '2.0', id: 7, method, params } });
    return { status: response.statusCode, body: response.json() };
  };
  const treasury = () => w.treasury();
  const stealData = () => encodeFunctionData({ abi: railUSDAbi, functionName: 'transfer', args: [w.attackerRecipient, 1_000_000n] });
  const rpcAttempts: Attempt[] = (
    [
      ['eth_sendTransaction', () => [{ from: treasury(), to: w.rail.contracts.token!, data: stealData() }]],
      ['eth_sign', () => [treasury(), '0xdeadbeef']],
      ['personal_sign', () => ['0xdeadbeef', treasury()]],
      ['eth_signTransaction', () => [{ from: treasury(), to: w.rail.contracts.token!, data: stealData() }]],
      ['eth_signTypedData_v4', () => [treasury(), '{}']],
      ['eth_accounts', () => []],
      ['hardhat_impersonateAccount', () => [treasury()]],
      ['hardhat_setStorageAt', () => [w.rail.contracts.token!, '0x0', `0x${'ff'.repeat(32)}`]],
      ['evm_snapshot', () => []],
    ] as Array<[string, () => unknown[]]>
  ).map(([method, params]) => ({
    name: `/rpc: a stranger calls ${method} as the treasury: method not available`,
    send: () => rpc(method, params()),
    refused: () => ({ status: 200, body: { jsonrpc: '2.0', id: 7, error: { code: -32601, message: `Method not available: ${method}` } } }),
  }));

  // The treasury (#8) holds the owners' deposits; #0 owns RailUSD (mint). Their keys are secret
  // (decision 0052), but a process given EMBEDDED_CHAIN_MNEMONIC holds them too: what is signed with
  // them still needs X-Internal-Key at /rpc (decision 0051). The test holds the rail, so it has them.
  const railKeyOf = (addressIndex: number) => privateKeyToAccount(toHex(w.rail.embedded!.accounts[addressIndex]!.getHdKey().privateKey!));
  // What anyone has: the keys of Hardhat's public development mnemonic, the rail's accounts before decision 0052.
  const publicKeyOf = (addressIndex: number) => privateKeyToAccount(toHex(mnemonicToAccount(DEVELOPMENT_MNEMONIC, { addressIndex }).getHdKey().privateKey!));
  /** A transaction to the token signed locally by `signer`, as the attacker would, for its next nonce. */
  const signedTokenCall = async (signer: Pick<PrivateKeyAccount, 'address' | 'signTransaction'>, data: Hex, authorizationList?: SignedAuthorization[]): Promise<Hex> => {
    const { publicClient } = w.rail;
    const nonce = await publicClient.getTransactionCount({ address: signer.address, blockTag: 'pending' });
    const { maxFeePerGas, maxPriorityFeePerGas } = await publicClient.estimateFeesPerGas();
    const common = { chainId: 8453, to: w.rail.contracts.token!, data, gas: 200_000n, nonce, maxFeePerGas, maxPriorityFeePerGas };
    return signer.signTransaction(authorizationList ? { ...common, type: 'eip7702', authorizationList } : { ...common, type: 'eip1559' });
  };
  const treasuryTransfer = (to: Address) => signedTokenCall(railKeyOf(EMBEDDED_TREASURY_ACCOUNT_INDEX), encodeFunctionData({ abi: railUSDAbi, functionName: 'transfer', args: [to, 1_000_000n] }));
  const ownerMint = () => signedTokenCall(railKeyOf(0), encodeFunctionData({ abi: railUSDAbi, functionName: 'mint', args: [w.attackerRecipient, 1_000_000_000n] }));
  /** A stranger's own transaction that would make the treasury's account run the token's code (EIP-7702), signed for by the treasury. */
  const delegationOfTreasury = async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const authorization = await railKeyOf(EMBEDDED_TREASURY_ACCOUNT_INDEX).signAuthorization({
      chainId: 8453,
      contractAddress: w.rail.contracts.token!,
      nonce: await w.rail.publicClient.getTransactionCount({ address: treasury() }),
    });
    return signedTokenCall(stranger, '0x', [authorization]);
  };
  const railAccountRefusal = (who: string, what = `its sender ${who} is`) => ({
    status: 200,
    body: { jsonrpc: '2.0', id: 7, error: { code: -32003, message: `transaction rejected: ${what} one of the rail's own accounts, for which only the rail sends (with X-Internal-Key)` } },
  });
  const rawSends: Attempt[] = (
    [
      ['no key', {}],
      ['a wrong X-Internal-Key', { 'x-internal-key': `${INTERNAL_KEY.slice(0, -1)}x` }],
    ] as Array<[string, Record<string, string>]>
  ).flatMap(([how, headers]): Attempt[] => [
    {
      name: `/rpc with ${how}: a RailUSD transfer signed locally as the treasury (#8) and sent raw is refused before the node (-32003)`,
      send: async () => rpc('eth_sendRawTransaction', [await treasuryTransfer(w.attackerRecipient)], headers),
      refused: () => railAccountRefusal(treasury()),
    },
    {
      name: `/rpc with ${how}: a RailUSD mint signed locally as its owner (#0) and sent raw is refused before the node (-32003)`,
      send: async () => rpc('eth_sendRawTransaction', [await ownerMint()], headers),
      refused: () => railAccountRefusal(railKeyOf(0).address),
    },
    {
      name: `/rpc with ${how}: a stranger's transaction carrying an EIP-7702 authorization signed as the treasury is refused (-32003)`,
      send: async () => rpc('eth_sendRawTransaction', [await delegationOfTreasury()], headers),
      refused: () => railAccountRefusal(treasury(), `it carries an EIP-7702 authorization signed by ${treasury()},`),
    },
  ]);

  // ---- The owners' own calls, so that the same requests are shown to work for them ----------
  const ownerControls: Attempt[] = [
    { name: "A's second desk reads A's payment by id", send: () => w.rest('GET', `/integration/payments/${w.paidA.railPaymentId}`, w.deskA2), refused: () => ({ status: 200, body: w.paidA }) },
    {
      name: "A's first desk reads A's batch payment by reference",
      send: () => w.rest('GET', `/integration/payments?tmsReference=${w.batchA[1]!.tmsReference}`, w.deskA1),
      refused: () => ({ status: 200, body: w.batchA[1] }),
    },
    {
      name: "A's desk asks GraphQL payment(A's id)",
      send: () => w.graphql('/graphql', PAYMENT, { id: w.paidA.railPaymentId }, w.deskA2),
      refused: () => ({ status: 200, body: { data: { payment: { railPaymentId: w.paidA.railPaymentId, settlement: { amount: '1250.5' } } } } }),
    },
    {
      name: 'the admin lists Agent.settlements of X: its settlement',
      send: () => w.graphql('/graphql', 'query ($id: ID!) { agent(id: $id) { settlements { railPaymentId } } }', { id: X() }, w.admin),
      refused: () => ({ status: 200, body: { data: { agent: { settlements: [{ railPaymentId: w.settledX }] } } } }),
    },
    {
      name: "the admin reads X's hold",
      send: () => w.rest('GET', `/agent/holds/${w.holdX}`, w.admin),
      refused: () => ({ status: 200, body: expect.objectContaining({ holdId: w.holdX, agentId: X(), status: 'HELD' }) }),
    },
    {
      name: "X's owner reads X's funds",
      send: () => w.rest('GET', '/agent/funds', w.agentX.headers),
      refused: () => ({ status: 200, body: expect.objectContaining({ agentId: X(), depositedUsd: '3000', spentUsd: '100', availableUsd: '2900' }) }),
    },
  ];

  let before: Record<string, unknown>;

  describe('the attack phase: every cross-owner read and write is refused', () => {
    beforeAll(async () => {
      before = await w.snapshot();
      expect(before.agentX).toMatchObject({ status: 'ACTIVE', mandate: { maxNotionalUsd: 1000, dailyCapUsd: 10_000 } });
      expect(before.holdX).toMatchObject({ holdId: w.holdX, status: 'HELD' });
    });

    // Table-driven: one test per attempt, named by what it tries.
    for (const { name, send, refused } of ownerControls) it(`control: ${name}`, async () => expect(await send()).toEqual(await refused()));
    for (const { name, send, refused } of [...restReads, ...graphqlReads, ...agentWrites, ...operatorPaths, ...rpcAttempts, ...rawSends]) {
      it(name, async () => expect(await send()).toEqual(await refused()));
    }

    describe('MCP (/integration/mcp through the MCP SDK client)', () => {
      const connected = (headers: Record<string, string>) => w.connectMcp(headers);
      const toolAnswer = async (client: Client, name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        return { isError: result.isError ?? false, body: result.structuredContent ?? JSON.parse((result.content as Array<{ text: string }>)[0]!.text) };
      };
      const toolReads: Array<[string, string, () => Record<string, unknown>]> = [
        ["payments.get of A's payment", 'payments.get', () => ({ railPaymentId: w.paidA.railPaymentId })],
        ["payments.get of A's batch payment", 'payments.get', () => ({ railPaymentId: w.batchA[0]!.railPaymentId })],
        ["payments.get of A's payment made over MCP", 'payments.get', () => ({ railPaymentId: w.mcpPaidA.railPaymentId })],
        ["payments.find of A's MCP payment's reference", 'payments.find', () => ({ tmsReference: w.mcpPaidA.tmsReference })],
        ["payments.get of X's settlement", 'payments.get', () => ({ railPaymentId: w.settledX })],
        ["payments.find of A's reference", 'payments.find', () => ({ tmsReference: w.paidA.tmsReference })],
        ["payments.find of A's reference naming A's institution", 'payments.find', () => ({ tmsReference: w.paidA.tmsReference, institution: w.institutionA })],
      ];

      it.each(toolReads)("B's client calls %s: the tool error of a missing payment", async (_what, tool, args) => {
        const client = await connected(w.bankB);
        try {
          const missing = await toolAnswer(client, 'payments.get', { railPaymentId: MISSING_PAYMENT });
          expect(missing).toEqual({ isError: true, body: { error: expect.any(String), code: 'PAY_ERR_PAYMENT_NOT_FOUND' } });
          expect(await toolAnswer(client, tool, args())).toEqual(missing);
        } finally {
          await client.close();
        }
      });

      it("control: A's second desk's client gets A's payment from payments.get and payments.find", async () => {
        const client = await connected(w.deskA2);
        try {
          expect(await toolAnswer(client, 'payments.get', { railPaymentId: w.paidA.railPaymentId })).toEqual({ isError: false, body: w.paidA });
          expect(await toolAnswer(client, 'payments.find', { tmsReference: w.paidA.tmsReference })).toEqual({ isError: false, body: w.paidA });
        } finally {
          await client.close();
        }
      });

      it.each(unauthenticated)('a client with %s is refused at connect (HTTP 401)', async (_who, headers) => {
        await expect(connected(headers())).rejects.toMatchObject({ code: 401, message: expect.stringContaining('"code":"GEN_ERR_UNAUTHORIZED"') });
      });
    });

    it("afterwards nothing moved: balances, each agent's funds, rows, blocks; X's mandate and status, A's payment, X's hold, the creditor's registration as they were", async () => {
      const after = await w.snapshot();
      expect(after).toEqual(before);
    });
  });

  describe("/rpc with the rail's X-Internal-Key: its own processes still send for its accounts (decision 0051)", () => {
    it('the same signed treasury transfer is accepted with the key and lands on chain', async () => {
      const recipient = freshWallet();
      const treasuryBefore = await w.balanceOf(treasury());
      const answer = await rpc('eth_sendRawTransaction', [await treasuryTransfer(recipient)], { 'x-internal-key': INTERNAL_KEY });
      expect(answer).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 7, result: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
      const receipt = await w.rail.publicClient.waitForTransactionReceipt({ hash: (answer.body as { result: Hex }).result });
      expect(receipt.status).toBe('success');
      expect(await w.balanceOf(recipient)).toBe(1_000_000n);
      expect(treasuryBefore - (await w.balanceOf(treasury()))).toBe(1_000_000n);
    });
  });

  describe("the public development mnemonic's keys are not the rail's (decision 0052)", () => {
    /** An EIP-3009 transferWithAuthorization of 1 rUSD from `from` to the attacker, signed by `signer`: the call data a stranger submits. */
    const stolenAuthorization = async (signer: PrivateKeyAccount, from: Address): Promise<Hex> => {
      const now = (await w.rail.publicClient.getBlock()).timestamp;
      const message = { from, to: w.attackerRecipient, value: 1_000_000n, validAfter: 0n, validBefore: now + 600n, nonce: generatePrivateKey() };
      const signature = await signer.signTypedData({
        domain: { name: RAIL_TOKEN_NAME, version: RAIL_TOKEN_VERSION, chainId: 8453, verifyingContract: w.rail.contracts.token! },
        types: {
          TransferWithAuthorization: [
            { name: 'from', type: 'address' },
            { name: 'to', type: 'address' },
            { name: 'value', type: 'uint256' },
            { name: 'validAfter', type: 'uint256' },
            { name: 'validBefore', type: 'uint256' },
            { name: 'nonce', type: 'bytes32' },
          ],
        },
        primaryType: 'TransferWithAuthorization',
        message,
      });
      const { to, value, validAfter, validBefore, nonce } = message;
      return encodeFunctionData({ abi: railUSDAbi, functionName: 'transferWithAuthorization', args: [from, to, value, validAfter, validBefore, nonce, signature] });
    };

    it("a stranger's transferWithAuthorization signed with the public mnemonic's #8 key, sent from the stranger's own wallet through /rpc, moves nothing", async () => {
      const publicTreasury = publicKeyOf(EMBEDDED_TREASURY_ACCOUNT_INDEX);
      expect(publicTreasury.address).not.toBe(treasury());
      const balances = async () => ({ treasury: await w.balanceOf(treasury()), publicTreasury: await w.balanceOf(publicTreasury.address), attacker: await w.balanceOf(w.attackerRecipient) });
      const before = await balances();
      // As the public #8 (the treasury before decision 0052), and as the rail's real treasury.
      for (const from of [publicTreasury.address, treasury()]) {
        const answer = await rpc('eth_sendRawTransaction', [await signedTokenCall(w.strangerWallet, await stolenAuthorization(publicTreasury, from))]);
        expect(answer).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 7, result: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
        const receipt = await w.rail.publicClient.waitForTransactionReceipt({ hash: (answer.body as { result: Hex }).result });
        expect({ from: receipt.from.toLowerCase(), status: receipt.status, logs: receipt.logs }).toEqual({ from: w.strangerWallet.address.toLowerCase(), status: 'reverted', logs: [] });
      }
      expect(await balances()).toEqual(before);
    });
  });

  describe("what B may do with A's references: its own payments, never A's result, never blocking A", () => {
    it("B's replay of A's bodies under A's references (REST, the batch path, GraphQL at /graphql and the subgraph, MCP) makes B's own payments and reveals none of A's", async () => {
      const treasuryBefore = await w.balanceOf(treasury());
      const fundsBefore = [(await w.rest('GET', '/agent/funds', w.agentX.headers)).body, (await w.rest('GET', '/agent/funds', w.agentY.headers)).body];
      const ofA = new Set([w.paidA.railPaymentId, w.mcpPaidA.railPaymentId, ...w.batchA.map((entry) => entry.railPaymentId)]);
      const own: Array<{ railPaymentId: string; tmsReference: string; amount: string }> = [];
      const keep = (answer: { railPaymentId: string; tmsReference: string; status: string; settlement: { amount: string } }, tmsReference: string) => {
        expect(answer).toMatchObject({ tmsReference, status: 'SETTLED' });
        expect(ofA.has(answer.railPaymentId)).toBe(false);
        own.push({ railPaymentId: answer.railPaymentId, tmsReference, amount: answer.settlement.amount });
      };

      // REST, A's own body: B's payment.
      const rest1 = await w.initiate(w.bankB, w.paymentA);
      keep(rest1 as never, w.paymentA.tmsReference);
      expect(rest1.settlement.txHash).not.toBe(w.paidA.settlement.txHash);

      // The batch path, A's single payment again (now B's own reference too: B's stored answer).
      const batch = await w.rest('POST', '/integration/payments/batch', w.bankB, { payments: [w.paymentA] });
      expect(batch.status).toBe(200);
      expect((batch.body as Array<{ railPaymentId: string }>).map((entry) => entry.railPaymentId)).toEqual([rest1.railPaymentId]);

      const INITIATE_MANY = 'mutation ($input: [PaymentInput!]!) { initiatePayments(input: $input) { tmsReference payment { railPaymentId } code } }';
      const many = await w.graphql('/graphql', INITIATE_MANY, { input: [w.paymentA] }, w.bankB);
      expect(many.body).toEqual({ data: { initiatePayments: [{ tmsReference: w.paymentA.tmsReference, payment: { railPaymentId: rest1.railPaymentId }, code: null }] } });

      // GraphQL, A's batch payments' references, at the gateway and at the payments subgraph.
      const INITIATE = 'mutation ($input: PaymentInput!) { initiatePayment(input: $input) { railPaymentId tmsReference status settlement { amount } } }';
      for (const [path, body] of [
        ['/graphql', w.batchBodiesA[0]!],
        ['/subgraphs/payments/graphql', w.batchBodiesA[1]!],
      ] as const) {
        const answer = await w.graphql(path, INITIATE, { input: body }, w.bankB);
        expect((answer.body as { errors?: unknown }).errors).toBeUndefined();
        keep((answer.body as { data: { initiatePayment: never } }).data.initiatePayment, body.tmsReference);
      }

      // MCP: A's MCP payment's body is B's own payment; A's first reference with another amount is a
      // 409 of B's own (B used it above), never A's payment.
      const client = await w.connectMcp(w.bankB);
      try {
        const replay = await client.callTool({ name: 'payments.initiate', arguments: w.mcpPaymentA });
        expect(replay.isError).toBeFalsy();
        keep(replay.structuredContent as never, w.mcpPaymentA.tmsReference);
        const batch = await client.callTool({ name: 'payments.batch', arguments: { payments: [w.paymentA] } });
        expect(JSON.parse((batch.content as Array<{ text: string }>)[0]!.text)).toEqual([expect.objectContaining({ railPaymentId: rest1.railPaymentId })]);
        const conflict = await client.callTool({ name: 'payments.initiate', arguments: { ...w.paymentA, amount: '2' } });
        expect({
          isError: conflict.isError,
          code: (conflict.structuredContent as { code?: string } | undefined)?.code ?? JSON.parse((conflict.content as Array<{ text: string }>)[0]!.text).code,
        }).toEqual({
          isError: true,
          code: 'PAY_ERR_IDEMPOTENCY_CONFLICT',
        });
      } finally {
        await client.close();
      }

      // A sees none of B's, and A's own answers are A's as before; a retry by A answers A's stored result.
      for (const payment of own) expect((await w.rest('GET', `/integration/payments/${payment.railPaymentId}`, w.deskA1)).status).toBe(404);
      expect(await w.rest('GET', `/integration/payments?tmsReference=${w.paidA.tmsReference}`, w.deskA2)).toEqual({ status: 200, body: w.paidA });
      expect(await w.initiate(w.deskA1, w.paymentA)).toEqual(w.paidA);
      expect((await w.rest('GET', `/integration/payments?tmsReference=${w.paidA.tmsReference}`, w.bankB)).body).toMatchObject({ railPaymentId: rest1.railPaymentId });

      // Only B's own payments left the treasury; the agents' funds did not move.
      const sent = own.reduce((total, payment) => total + parseUnits(payment.amount, 6), 0n);
      expect(treasuryBefore - (await w.balanceOf(treasury()))).toBe(sent);
      expect([(await w.rest('GET', '/agent/funds', w.agentX.headers)).body, (await w.rest('GET', '/agent/funds', w.agentY.headers)).body]).toEqual(fundsBefore);
    });

    it("Y's own settlement under X's Idempotency-Key and body is Y's own, paid from Y's funds: never X's answer", async () => {
      const fundsX = (await w.rest('GET', '/agent/funds', w.agentX.headers)).body;
      const own = await w.rest('POST', '/agent/settle', { ...w.agentY.headers, 'idempotency-key': w.idempotencyKeyX }, w.settleBodyX);
      expect(own.body).toMatchObject({ status: 'SETTLED', held: false });
      expect((own.body as { railPaymentId: string }).railPaymentId).not.toBe(w.settledX);
      expect((await w.rest('GET', '/agent/funds', w.agentY.headers)).body).toMatchObject({ depositedUsd: '500', spentUsd: '100', availableUsd: '400' });
      expect((await w.rest('GET', '/agent/funds', w.agentX.headers)).body).toEqual(fundsX);
    });

    it("a reference B takes first does not refuse A's real payment under it", async () => {
      const payment = w.paymentOf('75');
      const squatted = await w.initiate(w.bankB, { ...payment, amount: '1' });
      const real = await w.initiate(w.deskA1, payment);
      expect(real).toMatchObject({ tmsReference: payment.tmsReference, status: 'SETTLED', settlement: { amount: '75' } });
      expect(real.railPaymentId).not.toBe(squatted.railPaymentId);
      expect((await w.rest('GET', `/integration/payments?tmsReference=${payment.tmsReference}`, w.deskA2)).body).toEqual(real);
    });
  });
});
