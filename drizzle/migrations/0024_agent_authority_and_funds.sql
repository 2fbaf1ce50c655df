CREATE TABLE "agent_deposits" (
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"agent_id" text NOT NULL,
	"from_wallet" text NOT NULL,
	"amount_usd" numeric(38, 6) NOT NULL,
	"block_number" bigint NOT NULL,
	"credited_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_deposits_tx_hash_log_index_pk" PRIMARY KEY("tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "agent_funding_wallets" (
	"wallet_address" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"bound_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_sha256" text NOT NULL,
	"state" text NOT NULL,
	"status_code" integer,
	"answer" json,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key"),
	CONSTRAINT "idempotency_keys_state" CHECK ("idempotency_keys"."state" in ('RUNNING', 'DONE'))
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "agent_key_sha256" text;--> statement-breakpoint
CREATE INDEX "agent_deposits_agent" ON "agent_deposits" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "agent_funding_wallets_agent" ON "agent_funding_wallets" USING btree ("agent_id");