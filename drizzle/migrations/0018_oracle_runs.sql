CREATE TABLE "oracle_runs" (
	"oracle" text NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"runner" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"score" double precision,
	"overall" text,
	"output" jsonb,
	"error" text,
	CONSTRAINT "oracle_runs_oracle_slot_pk" PRIMARY KEY("oracle","slot"),
	CONSTRAINT "oracle_runs_status_check" CHECK ("oracle_runs"."status" in ('RUNNING', 'SUCCESS', 'FAILED'))
);
--> statement-breakpoint
CREATE INDEX "oracle_runs_latest_success_idx" ON "oracle_runs" USING btree ("oracle","slot") WHERE status = 'SUCCESS';