CREATE TABLE "aml_counterparties" (
	"wallet_key" text NOT NULL,
	"counterparty_key" text NOT NULL,
	"tx_count" integer NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "aml_counterparties_wallet_key_counterparty_key_pk" PRIMARY KEY("wallet_key","counterparty_key")
);
--> statement-breakpoint
CREATE TABLE "aml_profiles" (
	"wallet_key" text PRIMARY KEY NOT NULL,
	"tx_count" integer NOT NULL,
	"amount_mean_usd" double precision NOT NULL,
	"amount_m2" double precision NOT NULL,
	"volume_total_usd" double precision NOT NULL,
	"amount_max_usd" double precision NOT NULL,
	"counterparty_count" integer NOT NULL,
	"screen_count" integer NOT NULL,
	"blocked_count" integer NOT NULL,
	"risk_score" double precision,
	"first_seen_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"last_screened_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "aml_screenings" (
	"payment_id" text NOT NULL,
	"wallet_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"direction" text NOT NULL,
	"amount_usd" double precision NOT NULL,
	"near_threshold" boolean NOT NULL,
	"risk_score" integer NOT NULL,
	"action" text NOT NULL,
	"level" text NOT NULL,
	"result" jsonb NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "aml_screenings_payment_id_wallet_key_pk" PRIMARY KEY("payment_id","wallet_key")
);
--> statement-breakpoint
CREATE INDEX "aml_screenings_wallet_checked" ON "aml_screenings" USING btree ("wallet_key","checked_at");--> statement-breakpoint
CREATE INDEX "aml_screenings_events" ON "aml_screenings" USING btree ("wallet_key","checked_at") WHERE "aml_screenings"."level" <> 'INFO';