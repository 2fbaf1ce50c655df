CREATE TABLE "x402_payments" (
	"payer" text NOT NULL,
	"nonce" text NOT NULL,
	"resource" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"transaction" text,
	CONSTRAINT "x402_payments_payer_nonce_pk" PRIMARY KEY("payer","nonce")
);
