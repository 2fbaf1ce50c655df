CREATE TABLE "payments" (
	"rail_payment_id" text PRIMARY KEY NOT NULL,
	"tms_reference" text NOT NULL,
	"request_sha256" text NOT NULL,
	"request" jsonb NOT NULL,
	"status" text NOT NULL,
	"result" jsonb NOT NULL,
	"quote_id" text,
	"submitted_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	"tx_hash" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payments_tms_reference" UNIQUE("tms_reference"),
	CONSTRAINT "payments_status" CHECK ("payments"."status" in ('SETTLED', 'PENDING', 'BLOCKED', 'FAILED'))
);
