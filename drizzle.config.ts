import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // The entry that re-exports every owner's tables (drizzle/schema/*.ts): drizzle-kit follows its re-exports.
  schema: './drizzle/schema.ts',
  out: './drizzle/migrations',
});
