import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, startTestServer, type TestServer } from '../../test/helpers.js';
import { leiRecords } from './data/index.js';

/** The ownership chain and the widget as the all-in-one server mounts them, under {compliance_url} = /compliance. */
describe('ownership chain and sanctions widget in the all-in-one server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subgraphs: ['compliance'] });
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('POST /compliance/compliance/ubo-chain answers the chain, free, and errors in the compliance shape', async () => {
    const ok = await server.app.inject({ method: 'POST', url: '/compliance/compliance/ubo-chain', payload: { lei: '2138001KPMR6PD83HC08' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ lei: '2138001KPMR6PD83HC08', result: 'CLEAR', chain: [{ role: 'SUBJECT' }, { name: 'SHELL PLC', role: 'ULTIMATE_PARENT' }] });
    const bad = await server.app.inject({ method: 'POST', url: '/compliance/compliance/ubo-chain', payload: { lei: '2138001KPMR6PD83HC09' } });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'CMP_ERR_INVALID_LEI']);
    const wrongType = await server.app.inject({ method: 'POST', url: '/compliance/compliance/ubo-chain', payload: { lei: 7 } });
    expect([wrongType.statusCode, Object.keys(wrongType.json()).sort()]).toEqual([400, ['code', 'error']]);
  });

  it('GET /compliance/widget/sanctions answers the HTML page with its own CSP', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/compliance/widget/sanctions?q=0x098B716B8Aaf21512996dC57EB0615e2383E2f96' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toMatch(/^default-src 'none';script-src 'none';style-src 'sha256-/);
    expect(response.body).toContain('<p id="verdict" class="verdict BLOCKED">BLOCKED</p>');
  });

  it('both are in the OpenAPI document of {compliance_url}', async () => {
    const { paths } = (await server.app.inject({ method: 'GET', url: '/compliance/openapi.json' })).json() as { paths: Record<string, unknown> };
    // Paths are listed under {compliance_url}, as the spec writes them.
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/compliance/ubo-chain', '/widget/sanctions']));
  });

  it('LegalEntity.ownershipChain(deep: true) on the compliance subgraph is the REST result, field for field', async () => {
    const lei = '549300Z97UQPIB27EY09';
    const rest = (await server.app.inject({ method: 'POST', url: '/compliance/compliance/ubo-chain', payload: { lei, deep: true } })).json();
    const { data, errors } = await graphql<{ legalEntity: { ownershipChain: Record<string, unknown> } }>(
      server,
      `
        query ($lei: String!) {
          legalEntity(lei: $lei) {
            ownershipChain(deep: true) {
              lei
              deep
              result
              reasons
              cachedAt
              expiresAt
              fromCache
              chain {
                lei
                name
                role
                level
                jurisdiction
                leiStatus
                sanctions {
                  hit
                  bestScore
                  matches {
                    uid
                    name
                    matchedName
                    matchedAs
                    type
                    programs
                    screenedName
                    score
                  }
                }
              }
              sanctionsMatches {
                uid
                name
                matchedName
                matchedAs
                type
                programs
                screenedName
                score
                lei
                role
              }
              fatfAttestation {
                beneficialOwnersIdentified
                ownershipLevelsTraversed
                nodesScreened
                sanctionsStatus
                note
                parentReporting {
                  childLei
                  relation
                  status
                  parentLei
                  exceptionReason
                  resolved
                }
                jurisdictionRisk {
                  jurisdiction
                  country
                  fatfStatus
                  fatfCall
                  leis
                }
                fatfList {
                  plenary
                  statementDate
                }
              }
              sources {
                lei {
                  source
                  asOf
                }
                sanctions {
                  source
                  asOf
                  stale
                }
                fatf {
                  source
                  asOf
                }
              }
            }
          }
        }
      `,
      { lei },
      '/subgraphs/compliance/graphql',
    );
    expect(errors).toBeUndefined();
    // REST computed and cached it a moment ago: the graph reads the same row.
    expect(data?.legalEntity.ownershipChain).toEqual({ ...rest, fromCache: true });
  });

  it('50 entities with their ownership chains in one request, through the subgraph endpoint', async () => {
    const leis = leiRecords()
      .records.filter((record) => record.ultimateParent !== null)
      .slice(0, 50)
      .map((record) => record.lei);
    const representations = leis.map((lei) => ({ __typename: 'LegalEntity', lei }));
    const { data, errors } = await graphql<{ _entities: { lei: string; ownershipChain: { lei: string; chain: { role: string }[] } | null }[] }>(
      server,
      'query ($r: [_Any!]!) { _entities(representations: $r) { ... on LegalEntity { lei ownershipChain { lei chain { role } } } } }',
      { r: representations },
      '/subgraphs/compliance/graphql',
    );
    expect(errors).toBeUndefined();
    expect(data?._entities.map((entity) => entity.ownershipChain?.lei)).toEqual(leis);
    expect(data?._entities.every((entity) => entity.ownershipChain!.chain.at(-1)!.role === 'ULTIMATE_PARENT')).toBe(true);
  });
});
