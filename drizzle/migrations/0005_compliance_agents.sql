CREATE TABLE "agent_mandates" (
	"mandate_id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"max_notional_usd" numeric(20, 2),
	"daily_cap_usd" numeric(20, 2),
	"counterparty_whitelist" jsonb NOT NULL,
	"currency_pairs" jsonb NOT NULL,
	"esg_floor" numeric(5, 2),
	"ap2_compatible" boolean NOT NULL,
	"clamped" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_mandates_agent" UNIQUE("agent_id")
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"framework" text,
	"owner_entity" text,
	"owner_email" text,
	"owner_lei" text,
	"protocols" jsonb NOT NULL,
	"public_key" jsonb,
	"discoverable" boolean NOT NULL,
	"kya_level" text NOT NULL,
	"kya_score" integer NOT NULL,
	"status" text NOT NULL,
	"tier_caps" jsonb NOT NULL,
	"lei_verified" boolean NOT NULL,
	"lei_entity_name" text,
	"registered_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "agents_directory" ON "agents" USING btree ("registered_at","agent_id") WHERE "agents"."discoverable" and "agents"."status" = 'ACTIVE';--> statement-breakpoint
CREATE INDEX "agents_directory_owner" ON "agents" USING btree (lower("owner_entity"),"registered_at","agent_id") WHERE "agents"."discoverable" and "agents"."status" = 'ACTIVE';