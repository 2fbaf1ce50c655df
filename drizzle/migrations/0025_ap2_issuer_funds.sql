ALTER TABLE "agent_deposits" ALTER COLUMN "agent_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_deposits" ADD COLUMN "issuer" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "funding_issuer" text;--> statement-breakpoint
CREATE INDEX "agent_deposits_issuer" ON "agent_deposits" USING btree ("issuer") WHERE "agent_deposits"."issuer" is not null;--> statement-breakpoint
CREATE INDEX "payments_funding_issuer" ON "payments" USING btree ("funding_issuer") WHERE "payments"."funding_issuer" is not null;--> statement-breakpoint
ALTER TABLE "agent_deposits" ADD CONSTRAINT "agent_deposits_one_funder" CHECK (("agent_deposits"."agent_id" is null) <> ("agent_deposits"."issuer" is null));