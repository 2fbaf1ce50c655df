ALTER TABLE "x402_payments" ADD COLUMN "state" text DEFAULT 'CLAIMED' NOT NULL;--> statement-breakpoint
UPDATE "x402_payments" SET "state" = 'SETTLED' WHERE "transaction" IS NOT NULL;