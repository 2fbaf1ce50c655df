CREATE TABLE "agent_held_settlements" (
	"hold_id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"amount" text NOT NULL,
	"source_currency" text NOT NULL,
	"destination_currency" text NOT NULL,
	"recipient_address" text NOT NULL,
	"amount_usd" numeric(38, 18) NOT NULL,
	"violations" jsonb NOT NULL,
	"status" text NOT NULL,
	"rail_payment_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "agent_held_settlements_status" CHECK ("agent_held_settlements"."status" in ('HELD', 'RELEASED', 'DISMISSED'))
);
--> statement-breakpoint
CREATE INDEX "agent_held_settlements_agent" ON "agent_held_settlements" USING btree ("agent_id","created_at");