import { z } from 'zod';
import { AML_DIRECTIONS } from './domain/index.js';

/**
 * Edge validation of the AML requests (Document 2 §4 "/aml/..."; decision 0017): a strict body (an
 * unknown field is refused), every string bounded, control characters refused. The wallet is any
 * chain's address (OFAC lists Bitcoin, Ethereum, Tron, Monero ... addresses); the counterparty an
 * address or a name.
 */
export const MAX_WALLET_LENGTH = 128;
const MAX_COUNTERPARTY_LENGTH = 256;
const MAX_PAYMENT_ID_LENGTH = 128;
/** An amount above a trillion USD is a typing error, not a payment. */
export const MAX_AML_AMOUNT = 1e12;
/** Currencies whose amounts are USD amounts: the US dollar, and USDC, the rail's settlement asset, redeemable one for one. */
export const USD_DENOMINATED = ['USD', 'USDC'] as const;

const noControlCharacters = (value: string) => !/\p{Cc}/u.test(value);

export const amlWalletText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_WALLET_LENGTH, `must be at most ${MAX_WALLET_LENGTH} characters`)
  .regex(/^[A-Za-z0-9]+$/, 'must be a wallet address: letters and digits only');

/** At most 6 decimal places (USDC's base unit), counted on the number's shortest decimal text. */
const hasAtMostSixDecimals = (value: number) => /^\d+(\.\d{1,6})?$/.test(String(value));

const usdAmount = z
  .number({ error: 'must be a number' })
  .positive('must be greater than 0')
  .max(MAX_AML_AMOUNT, `must be at most ${MAX_AML_AMOUNT}`)
  .refine(hasAtMostSixDecimals, 'must have at most 6 decimal places');

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`).refine(noControlCharacters, 'must not contain control characters');

export const amlScreenBodySchema = z
  .strictObject({
    wallet: amlWalletText,
    /** A wallet address or a legal or personal name. */
    counterparty: text(MAX_COUNTERPARTY_LENGTH),
    amount: usdAmount,
    currency: z
      .string()
      .regex(/^[A-Za-z]{3,5}$/, 'must be a currency or asset code of 3 to 5 letters')
      .transform((value) => value.toUpperCase()),
    paymentId: z
      .string()
      .min(1, 'must not be empty')
      .max(MAX_PAYMENT_ID_LENGTH, `must be at most ${MAX_PAYMENT_ID_LENGTH} characters`)
      .regex(/^[\x21-\x7E]+$/, 'must be printable ASCII without spaces'),
    direction: z.enum(AML_DIRECTIONS, { error: `must be one of ${AML_DIRECTIONS.join(', ')}` }),
    /** Ours (decision 0017): the counterparty's name when `counterparty` is its address; screened against the SDN names too. */
    counterpartyName: text(MAX_COUNTERPARTY_LENGTH).optional(),
    /** Ours: the counterparty's country (ISO 3166-1 alpha-2), for the FATF jurisdiction signals. */
    counterpartyCountry: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code')
      .transform((value) => value.toUpperCase())
      .optional(),
    /** Ours: the amount in USD, required when the currency is not USD-denominated (the caller holds the FX rate it paid at). */
    amountUsd: usdAmount.optional(),
  })
  .superRefine((body, context) => {
    const usd = (USD_DENOMINATED as readonly string[]).includes(body.currency);
    if (!usd && body.amountUsd === undefined) {
      context.addIssue({ code: 'custom', path: ['amountUsd'], message: `is required when the currency is not ${USD_DENOMINATED.join(' or ')}` });
    }
    if (usd && body.amountUsd !== undefined && body.amountUsd !== body.amount) {
      context.addIssue({ code: 'custom', path: ['amountUsd'], message: `must equal amount (or be left out) when the currency is ${body.currency}` });
    }
  });

export const amlWalletParamsSchema = z.strictObject({ wallet: amlWalletText });

export type AmlScreenBody = z.infer<typeof amlScreenBodySchema>;
