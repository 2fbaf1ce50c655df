CREATE TABLE "stream_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"payer" text NOT NULL,
	"payment_nonce" text NOT NULL,
	"transaction" text NOT NULL,
	"unit_type" text NOT NULL,
	"unit_price" bigint NOT NULL,
	"funded" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"units_used" bigint NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_tick_at" timestamp with time zone,
	CONSTRAINT "stream_sessions_token_hash" UNIQUE("token_hash"),
	CONSTRAINT "stream_sessions_balance_not_negative" CHECK ("stream_sessions"."balance" >= 0 and "stream_sessions"."balance" <= "stream_sessions"."funded")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "stream_sessions_payment" ON "stream_sessions" USING btree ("payer","payment_nonce");