import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

// The import boundaries of .dependency-cruiser.cjs (decision 0060), checked through dependency-cruiser's API:
// the tree has none of their violations, and a planted tree (test/fixtures/boundaries/) shows that they bite.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PLANTED = fileURLToPath(new URL('fixtures/boundaries/', import.meta.url));
const CRUISE_TIMEOUT_MS = 180_000;

/** Cruises `baseDir` (all of it, paths relative to it) with the repository's rules. */
async function cruiseWithRepositoryRules(baseDir: string): Promise<IViolation[]> {
  const options: ICruiseOptions = { ...(await extractDepcruiseOptions(`${ROOT}.dependency-cruiser.cjs`)), baseDir, validate: true };
  const tsConfig = extractTSConfig(`${baseDir}tsconfig.json`);
  const { output } = await cruise(['.'], options, {}, { tsConfig });
  if (typeof output === 'string') throw new Error(`dependency-cruiser answered text, not a result: ${output.slice(0, 500)}`);
  return (output as ICruiseResult).summary.violations;
}

/** One line a reader can act on: the rule, the import, and the cycle when there is one. */
function describeViolation(violation: IViolation): string {
  const cycle = violation.cycle?.length ? ` (cycle: ${[violation.from, ...violation.cycle.map((step) => step.name)].join(' → ')})` : '';
  return `${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`;
}

const ofRule = (violations: IViolation[], rule: string): string[] =>
  violations
    .filter((violation) => violation.rule.name === rule)
    .map((violation) => `${violation.from} → ${violation.to}`)
    .sort();

describe('import boundaries (dependency-cruiser, .dependency-cruiser.cjs)', () => {
  it(
    'the tree has no boundary violations',
    async () => {
      const violations = await cruiseWithRepositoryRules(ROOT);
      // Each line names the rule and the import; .dependency-cruiser.cjs says why the rule exists.
      expect(violations.map(describeViolation)).toEqual([]);
    },
    CRUISE_TIMEOUT_MS,
  );

  describe('on the planted tree (test/fixtures/boundaries)', () => {
    let planted: IViolation[] = [];
    beforeAll(async () => {
      planted = await cruiseWithRepositoryRules(PLANTED);
    }, CRUISE_TIMEOUT_MS);

    it('fails on a planted cross-subgraph import', () => {
      expect(ofRule(planted, 'no-cross-subgraph-import')).toEqual(['subgraphs/alpha/service.ts → subgraphs/beta/index.ts']);
    });

    it('fails on a planted cycle, through a type-only import', () => {
      const cycles = planted.filter((violation) => violation.rule.name === 'no-circular');
      expect(cycles).toHaveLength(1);
      const files = new Set([cycles[0]!.from, ...cycles[0]!.cycle!.map((step) => step.name)]);
      expect([...files].sort()).toEqual(['subgraphs/beta/journal.ts', 'subgraphs/beta/ledger.ts']);
    });

    it('fails on a domain importing platform or a node I/O module', () => {
      expect(ofRule(planted, 'domain-is-pure')).toEqual(['subgraphs/alpha/domain/pricing.ts → platform/clock.ts', 'subgraphs/alpha/domain/rates.ts → fs']);
    });

    it('fails on an import past a domain barrel', () => {
      expect(ofRule(planted, 'no-import-past-domain-barrel')).toEqual(['subgraphs/alpha/routes.ts → subgraphs/alpha/domain/pricing.ts']);
    });

    it('fails on platform importing a subgraph or contracts, contracts importing a subgraph, the gateway past a subgraph index', () => {
      expect(ofRule(planted, 'platform-not-to-subgraphs')).toEqual(['platform/registry.ts → subgraphs/alpha/index.ts']);
      expect(ofRule(planted, 'platform-not-to-contracts')).toEqual(['platform/chain/decimals.ts → contracts/deploy.ts']);
      expect(ofRule(planted, 'contracts-not-to-subgraphs')).toEqual(['contracts/deploy.ts → subgraphs/beta/index.ts']);
      expect(ofRule(planted, 'gateway-only-through-subgraph-index')).toEqual(['gateway/server.ts → subgraphs/alpha/service.ts']);
    });

    it('raises nothing but the planted violations', () => {
      expect(planted.map(describeViolation).sort()).toEqual([
        'contracts-not-to-subgraphs: contracts/deploy.ts → subgraphs/beta/index.ts',
        'domain-is-pure: subgraphs/alpha/domain/pricing.ts → platform/clock.ts',
        'domain-is-pure: subgraphs/alpha/domain/rates.ts → fs',
        'gateway-only-through-subgraph-index: gateway/server.ts → subgraphs/alpha/service.ts',
        expect.stringMatching(/^no-circular: subgraphs\/beta\/(journal|ledger)\.ts → /),
        'no-cross-subgraph-import: subgraphs/alpha/service.ts → subgraphs/beta/index.ts',
        'no-import-past-domain-barrel: subgraphs/alpha/routes.ts → subgraphs/alpha/domain/pricing.ts',
        'platform-not-to-contracts: platform/chain/decimals.ts → contracts/deploy.ts',
        'platform-not-to-subgraphs: platform/registry.ts → subgraphs/alpha/index.ts',
      ]);
    });
  });
});
