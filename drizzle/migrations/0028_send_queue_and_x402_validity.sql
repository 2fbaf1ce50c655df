CREATE TABLE "chain_nonces" (
	"chain_id" integer NOT NULL,
	"account" text NOT NULL,
	"next_nonce" bigint,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_nonces_chain_id_account_pk" PRIMARY KEY("chain_id","account")
);
--> statement-breakpoint
ALTER TABLE "x402_payments" ADD COLUMN "valid_before" numeric(78, 0);