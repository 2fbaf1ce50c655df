import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { InfrastructureError } from './errors.js';
import { createLogger, describeErrorForLog, lazyChildLogger } from './log.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

const customerName = 'Jane Q. Customer';
const failedInsert = () =>
  new InfrastructureError(
    'insert into fee_quotes (500 rows)',
    new DrizzleQueryError(
      'insert into "fee_quotes" ("quote_id", "body") values ($1, $2)',
      ['srq-1-abc', `{"payer":"${customerName}"}`],
      Object.assign(new Error('connection terminated'), { code: '57P01' }),
    ),
  );

describe('log lines', () => {
  it('finding: a failed batch logged its full SQL with every parameter; now only the operation and the driver code', () => {
    const { lines, destination } = capture();
    createLogger({ logLevel: 'info', destination }).error({ err: failedInsert() }, 'quote write failed');
    const text = JSON.stringify(lines);
    expect(text).not.toContain(customerName);
    expect(text).not.toContain('insert into "fee_quotes"');
    expect(lines[0]?.err).toMatchObject({
      type: 'InfrastructureError',
      message: 'insert into fee_quotes (500 rows) failed',
      cause: { type: 'DrizzleQueryError', message: 'Failed query (SQL text and parameters withheld)', cause: { message: 'connection terminated', code: '57P01' } },
    });
  });

  it("redacts an agent owner's X-Agent-Key (decision 0048) from logged request headers, as the other keys", () => {
    const { lines, destination } = capture();
    const agentKey = `agk_${'S'.repeat(43)}`;
    const headers = { 'x-agent-id': 'agt_AAAAAAAAAAAAAAAAAAAAAA', 'x-agent-key': agentKey, 'x-internal-key': 'internal-secret' };
    createLogger({ logLevel: 'info', destination }).info({ req: { headers }, headers }, 'request');
    expect(JSON.stringify(lines)).not.toContain(agentKey);
    expect(lines[0]).toMatchObject({
      req: { headers: { 'x-agent-id': 'agt_AAAAAAAAAAAAAAAAAAAAAA', 'x-agent-key': '[redacted]', 'x-internal-key': '[redacted]' } },
      headers: { 'x-agent-key': '[redacted]' },
    });
  });

  it('finding 11: each link of the cause chain is logged with its stack frames; a frame never repeats the withheld SQL', () => {
    const { lines, destination } = capture();
    createLogger({ logLevel: 'info', destination }).error({ err: failedInsert() }, 'quote write failed');
    const err = lines[0]?.err as Record<string, any>;
    for (const link of [err, err.cause, err.cause.cause]) {
      expect(link.stack).toMatch(/^at /);
      expect(link.stack.split('\n').every((frame: string) => frame.startsWith('at '))).toBe(true);
    }
    expect(JSON.stringify(lines)).not.toContain('insert into "fee_quotes"');
  });

  it('logs the errors of an AggregateError (a connection refused on each address) under errors', () => {
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const error = new Error('ping Redis failed', { cause: new AggregateError([refused('127.0.0.1:1'), refused('[::1]:1')]) });
    expect(describeErrorForLog(error)).toMatchObject({
      message: 'ping Redis failed',
      cause: { type: 'AggregateError', errors: [{ message: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' }, { message: 'connect ECONNREFUSED [::1]:1' }] },
    });
  });

  it('finding: 5 s of database faults wrote 230 MB of log; a storm of one failure is capped per window with a count', () => {
    let now = 0;
    const { lines, destination } = capture();
    const logger = createLogger({ logLevel: 'info', destination, throttle: { linesPerWindow: 3, windowMs: 1000 }, now: () => now });
    for (let index = 0; index < 1000; index += 1) logger.error({ err: failedInsert() }, 'quote write failed');
    expect(lines).toHaveLength(3);
    now = 1500;
    logger.error({ err: failedInsert() }, 'quote write failed');
    expect(lines.map((line) => line.msg)).toEqual([
      'quote write failed',
      'quote write failed',
      'quote write failed',
      '997 more lines like this were suppressed: quote write failed',
      'quote write failed',
    ]);
  });

  it('does not throttle info lines', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ logLevel: 'info', destination, throttle: { linesPerWindow: 1, windowMs: 1000 } });
    for (let index = 0; index < 5; index += 1) logger.info('listening');
    expect(lines).toHaveLength(5);
  });

  it('keeps the cause chain of a startup failure, with each cause short', () => {
    const error = new InfrastructureError('opening the postgres database', Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:1\n${'x'.repeat(5000)}`), { code: 'ECONNREFUSED' }));
    expect(describeErrorForLog(error)).toMatchObject({
      message: 'opening the postgres database failed',
      cause: { message: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' },
    });
  });
});

describe("a request's logger, made on its first line (decision 0094)", () => {
  it('writes the lines of a pino child with the same bindings, redaction included, and none below the level', async () => {
    const { lines, destination } = capture();
    const parent = createLogger({ logLevel: 'warn', destination });
    const child = lazyChildLogger(parent, { reqId: 'req-7' }, {});
    child.info('below the level');
    child.error({ headers: { authorization: 'Bearer secret' } }, 'it failed');
    child.child({ step: 2 }).warn('a child of it');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map(({ reqId, msg, headers, step }) => ({ reqId, msg, headers, step }))).toEqual([
      { reqId: 'req-7', msg: 'it failed', headers: { authorization: '[redacted]' }, step: undefined },
      { reqId: 'req-7', msg: 'a child of it', headers: undefined, step: 2 },
    ]);
    expect(child.level).toBe('warn');
  });
});
