import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileResponseSerializer, responseJsonSchema } from './serializer.js';

describe('response serializers compiled from the zod shapes', () => {
  const shape = z.object({
    id: z.string(),
    amount: z.number(),
    note: z.string().nullable(),
    nested: z.object({ count: z.number().int() }).nullable(),
    tags: z.array(z.enum(['a', 'b'])),
    byKey: z.record(z.string(), z.number()),
  });
  const serialize = compileResponseSerializer(shape);

  it('writes what JSON.stringify writes for values of the shape, nulls included', () => {
    const values = [
      { id: 'x"\u0000', amount: 0.1 + 0.2, note: null, nested: null, tags: [], byKey: {} },
      { id: '', amount: -1e-7, note: 'n', nested: { count: 3 }, tags: ['a', 'b'], byKey: { k: 1.5 } },
    ];
    for (const value of values) expect(serialize(value)).toBe(JSON.stringify(value));
  });

  it('writes only the declared fields: an internal field on a value never reaches the wire', () => {
    const value = { id: 'a', amount: 1, note: null, nested: null, tags: [], byKey: {}, secret: 'internal' };
    expect(JSON.parse(serialize(value))).not.toHaveProperty('secret');
  });

  it('compiles a nullable field to a type list, not a branch validated for every value', () => {
    expect(responseJsonSchema(shape)).toMatchObject({ properties: { note: { type: ['string', 'null'] }, nested: { type: ['object', 'null'] } } });
  });
});
