import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const mainScript = fileURLToPath(new URL('../gateway/main.ts', import.meta.url));

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs main.ts to its end; resolves with its exit code and stderr. */
function start(environment: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', mainScript],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', LOG_LEVEL: 'silent', ...environment }, encoding: 'utf8', timeout: 30_000 },
      (error, _stdout, stderr) => resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
    );
  });
}

describe.concurrent('a start that cannot succeed says why and stops', () => {
  it('finding: startup database errors dropped their cause; the cause is printed and the process exits 1', async () => {
    const port = await closedPort();
    const result = await start({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`, QUOTE_SIGNING_KEY: 'k'.repeat(40), DATABASE_CONNECT_TIMEOUT_MS: '1000' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/could not start: opening the postgres database failed\n(\s+caused by: .*\n)*\s+caused by: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses a signing key file shorter than 32 bytes, naming the file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'srg-start-'));
    writeFileSync(join(dataDir, 'quote-signing.key'), 'abc');
    const result = await start({ DATA_DIR: dataDir, QUOTE_SIGNING_KEY: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/quote signing key in .*quote-signing\.key holds 3 bytes; at least 32 are required/);
  });
});
