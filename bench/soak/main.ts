import { exitWithUsage, UsageError } from '../../platform/cli.js';
import { parseSoakArguments, SOAK_USAGE, type SoakOptions } from './options.js';

/** `npm run soak -- --minutes K [--gateways M --replicas N --rate R]` (decision 0089): exit 0 when the reconciliation passed, 1 when not, 2 for a usage error. */
async function main(): Promise<number> {
  let options: SoakOptions;
  try {
    options = parseSoakArguments(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) exitWithUsage(SOAK_USAGE, error);
    throw error;
  }
  // The run's modules (viem, x402, the launcher) load once the command line is read: --help and a usage error load none.
  const [{ runSoak }, { renderProblems, renderSoakSection, writeSoakSection }] = await Promise.all([import('./soak.js'), import('./report.js')]);
  const result = await runSoak(options, (line) => console.log(line));
  console.log(`\n${renderSoakSection(result)}`);
  if (options.write) console.log(`(written to ${writeSoakSection(result)})`);
  if (result.passed) return 0;
  console.error(`\n${renderProblems(result)}`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
