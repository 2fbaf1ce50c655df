/** The rail token's decimals: RailUSD, like USDC, counts in whole base units of 10⁻⁶ (contracts/src). */
export const TOKEN_DECIMALS = 6;
