import { z } from 'zod';
import { countryCode, leiText, name } from '../shared/inputs.js';

/** A wallet on any chain the SDN list names (EVM 0x…, Bitcoin, Tron, …): letters and digits only. */
const anyChainWallet = z.string().regex(/^[A-Za-z0-9]{20,128}$/, 'must be a wallet address: 20 to 128 letters and digits');
/** USD: positive and finite, at most a trillion (no payment is larger). */
const amountUsd = z.number().positive('must be greater than 0').max(1e12, 'must be at most 1e12').finite();

/** POST /compliance/vendor-risk (Document 2 §4): name required; lei, wallet, country, amount optional. */
export const vendorRiskBodySchema = z.strictObject({
  name,
  lei: leiText.optional(),
  wallet: anyChainWallet.optional(),
  country: countryCode.optional(),
  amount: amountUsd.optional(),
});

export type VendorRiskBody = z.infer<typeof vendorRiskBodySchema>;
