import { describe, expect, it } from 'vitest';
import { AppError, InfrastructureError } from './errors.js';
import { boundedCall } from './timeout.js';

describe('boundedCall', () => {
  it("wraps a driver's failure as infrastructure naming the operation, the driver's error kept as cause", async () => {
    const driverError = new Error('relation "payments" does not exist: select * from payments where ...');
    const failure = await boundedCall(Promise.reject(driverError), 1000, 'select from payments').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InfrastructureError);
    expect((failure as InfrastructureError).message).not.toContain('relation');
    expect((failure as InfrastructureError).cause).toBe(driverError);
  });

  it("passes the domain's own answer (an AppError) as it is", async () => {
    const refusal = new AppError('PAY_ERR_QUOTE_USED');
    await expect(boundedCall(Promise.reject(refusal), 1000, 'claim')).rejects.toBe(refusal);
  });

  it('rejects as infrastructure once the bound has passed', async () => {
    const never = new Promise<never>(() => undefined);
    await expect(boundedCall(never, 10, 'a statement that never answers')).rejects.toBeInstanceOf(InfrastructureError);
  });
});
