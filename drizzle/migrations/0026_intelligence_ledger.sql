CREATE TABLE "intelligence_ledger_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"subject" text NOT NULL,
	"period" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"resolves_at" timestamp with time zone NOT NULL,
	"statement" text NOT NULL,
	"probability" double precision NOT NULL,
	"call" json NOT NULL,
	CONSTRAINT "intelligence_ledger_calls_once_per_period" UNIQUE("model","subject","period"),
	CONSTRAINT "intelligence_ledger_calls_probability_check" CHECK ("intelligence_ledger_calls"."probability" >= 0 and "intelligence_ledger_calls"."probability" <= 1)
);
--> statement-breakpoint
CREATE TABLE "intelligence_ledger_resolutions" (
	"call_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"outcome" boolean,
	"observed" json NOT NULL,
	"resolved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "intelligence_ledger_resolutions_status_check" CHECK ("intelligence_ledger_resolutions"."status" in ('RESOLVED', 'VOID')),
	CONSTRAINT "intelligence_ledger_resolutions_outcome_check" CHECK (("intelligence_ledger_resolutions"."status" = 'VOID') = ("intelligence_ledger_resolutions"."outcome" is null))
);
--> statement-breakpoint
CREATE INDEX "intelligence_ledger_calls_resolves_at_idx" ON "intelligence_ledger_calls" USING btree ("resolves_at");--> statement-breakpoint
-- Hand-written (decision 0075): the ledger is append-only. A call or a resolution, once written, is
-- never changed or removed: UPDATE and DELETE of their rows are refused here, whatever the client.
CREATE FUNCTION "intelligence_ledger_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the intelligence ledger is append-only: % of % refused', TG_OP, TG_TABLE_NAME;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "intelligence_ledger_calls_append_only" BEFORE UPDATE OR DELETE ON "intelligence_ledger_calls" FOR EACH ROW EXECUTE FUNCTION "intelligence_ledger_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "intelligence_ledger_resolutions_append_only" BEFORE UPDATE OR DELETE ON "intelligence_ledger_resolutions" FOR EACH ROW EXECUTE FUNCTION "intelligence_ledger_refuse_change"();
