import { Big } from 'big.js';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

function toDecimalString(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return new Big(value).toString();
  if (typeof value === 'string' && DECIMAL_PATTERN.test(value)) return new Big(value).toString();
  throw new GraphQLError(`Decimal cannot represent ${String(value)}`);
}

/** Money and other exact quantities as decimal strings, so no client parses them into floats by accident. */
export const DecimalScalar = new GraphQLScalarType({
  name: 'Decimal',
  description: 'An exact decimal number carried as a string, e.g. "9861.5". Money is in units (USD, USDC), not base units.',
  serialize: toDecimalString,
  parseValue: toDecimalString,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return toDecimalString(ast.value);
    throw new GraphQLError('Decimal must be a string or number literal');
  },
});
