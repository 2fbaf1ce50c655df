CREATE TABLE "payment_quote_uses" (
	"quote_id" text PRIMARY KEY NOT NULL,
	"rail_payment_id" text NOT NULL,
	"used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- The quotes payments already hold, given with the request (kept even when the payment ended before
-- its settling recorded quote_id) or recorded at the settling: the first payment under each keeps it
-- (decision 0046).
INSERT INTO "payment_quote_uses" ("quote_id", "rail_payment_id", "used_at")
SELECT DISTINCT ON ("quote_id") "quote_id", "rail_payment_id", "created_at" FROM (
  SELECT "request" ->> 'quoteId' AS "quote_id", "rail_payment_id", "created_at" FROM "payments" WHERE "request" ->> 'quoteId' IS NOT NULL
  UNION ALL
  SELECT "quote_id", "rail_payment_id", "created_at" FROM "payments" WHERE "quote_id" IS NOT NULL
) AS "held" ORDER BY "quote_id", "created_at"
ON CONFLICT ("quote_id") DO NOTHING;
