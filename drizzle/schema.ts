// The tables of the house, one file per owner under drizzle/schema/ (a banner in each says whose).
// This file is the one entry: drizzle-kit reads it (drizzle.config.ts), platform/db.ts hands all of it
// to drizzle, and every store imports its tables from here.
export * from './schema/compliance.js';
export * from './schema/compliance-reference.js';
export * from './schema/fees.js';
export * from './schema/intelligence.js';
export * from './schema/intelligence-ledger.js';
export * from './schema/payments.js';
export * from './schema/platform.js';
