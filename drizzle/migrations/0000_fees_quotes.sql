CREATE TABLE "fee_quotes" (
	"quote_id" text PRIMARY KEY NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"amount_usd" numeric(20, 6) NOT NULL,
	"has_fx" boolean NOT NULL,
	"esg_score" numeric NOT NULL,
	"monthly_volume_usd" numeric NOT NULL,
	"volume_tier" text NOT NULL,
	"total_bps" numeric NOT NULL,
	"total_usd" numeric(20, 6) NOT NULL,
	"net_usd" numeric(20, 6) NOT NULL,
	"body" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "fee_quotes_issued_at_idx" ON "fee_quotes" USING btree ("issued_at");