CREATE TABLE "institutions" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_tms_reference";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "institution_id" text;--> statement-breakpoint
-- Edited from the generated "text NOT NULL": existing rows have no owner until the backfill below,
-- which sets NOT NULL (and adds api_keys_institution) once every row has one.
ALTER TABLE "payments" ADD COLUMN "institution_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_tms_reference_institution" ON "payments" USING btree ("tms_reference","institution_id");--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Hand-written backfill (decision 0050), run as written by test/migration-0023.test.ts. Every
-- statement may run again over rows it filled.
-- 1. The two institutions the migration needs.
-- 2. Bearer keys issued before tenancy: one institution, LEGACY_INSTITUTION. Each of them could
--    read and retry every payment, so together they acted as one institution; payments do not
--    record which key made them, so no finer split is possible without losing a key's access.
-- 3. Payments: the settlement agent's own (an agent_id, or an AGT- / AP2- reference, which the
--    integration API refuses) to SETTLEMENT_AGENT_INSTITUTION; every other to LEGACY_INSTITUTION,
--    whose keys keep reading and retrying them exactly as before.
-- 4. Then the constraints the schema declares: payments.institution_id NOT NULL, and a bearer key
--    has an institution while an API key has none (the generated CHECK, moved after the backfill).
-- ---------------------------------------------------------------------------------------------
INSERT INTO "institutions" ("id", "name", "created_at") VALUES
  ('settlement-agent', 'The settlement agent''s own settlements (/agent)', now()),
  ('legacy', 'Bearer keys and payments from before tenancy (migration 0023)', now())
ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
UPDATE "api_keys" SET "institution_id" = 'legacy' WHERE "kind" = 'bearer' AND "institution_id" IS NULL;--> statement-breakpoint
UPDATE "payments" SET "institution_id" = CASE
  WHEN "agent_id" IS NOT NULL OR "tms_reference" LIKE 'AGT-%' OR "tms_reference" LIKE 'AP2-%' THEN 'settlement-agent'
  ELSE 'legacy'
END WHERE "institution_id" IS NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "institution_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT IF EXISTS "api_keys_institution";--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_institution" CHECK (("api_keys"."kind" = 'bearer') = ("api_keys"."institution_id" is not null));
