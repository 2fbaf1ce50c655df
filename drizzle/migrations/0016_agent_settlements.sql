CREATE TABLE "ap2_mandate_uses" (
	"reference" text PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"rail_payment_id" text NOT NULL,
	"used_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "agent_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "agent_amount_usd" numeric(38, 18);--> statement-breakpoint
CREATE INDEX "payments_agent_day" ON "payments" USING btree ("agent_id","submitted_at") WHERE "payments"."agent_id" is not null;