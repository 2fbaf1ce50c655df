CREATE TABLE "payment_callbacks" (
	"id" text PRIMARY KEY NOT NULL,
	"rail_payment_id" text NOT NULL,
	"url" text NOT NULL,
	"body" text NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"last_status" integer,
	"last_error" text,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "payment_callbacks_rail_payment_id" UNIQUE("rail_payment_id"),
	CONSTRAINT "payment_callbacks_attempt_range" CHECK ("payment_callbacks"."attempt" >= 0 and "payment_callbacks"."attempt" <= 4),
	CONSTRAINT "payment_callbacks_state" CHECK ("payment_callbacks"."state" in ('PENDING', 'DELIVERED', 'FAILED'))
);
--> statement-breakpoint
CREATE INDEX "payment_callbacks_due" ON "payment_callbacks" USING btree ("next_attempt_at") WHERE "payment_callbacks"."state" = 'PENDING';