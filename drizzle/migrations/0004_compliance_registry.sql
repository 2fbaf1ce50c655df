CREATE TABLE "compliance_wallet_audit" (
	"id" text PRIMARY KEY NOT NULL,
	"wallet_address" text NOT NULL,
	"action" text NOT NULL,
	"record" jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "compliance_wallets" (
	"wallet_address" text PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"country" text,
	"aliases" jsonb NOT NULL,
	"lei" text,
	"lei_status" text,
	"registration_type" text NOT NULL,
	"registered_at" timestamp with time zone NOT NULL,
	"active" boolean NOT NULL,
	"deactivated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vop_checks" (
	"request_id" text PRIMARY KEY NOT NULL,
	"wallet_address" text NOT NULL,
	"submitted_name" text NOT NULL,
	"submitted_lei" text,
	"result" text NOT NULL,
	"score" numeric,
	"resolved_by" text NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "compliance_wallet_audit_wallet" ON "compliance_wallet_audit" USING btree ("wallet_address","at");--> statement-breakpoint
CREATE INDEX "compliance_wallets_lei" ON "compliance_wallets" USING btree ("lei");--> statement-breakpoint
CREATE INDEX "vop_checks_wallet_checked" ON "vop_checks" USING btree ("wallet_address","checked_at");