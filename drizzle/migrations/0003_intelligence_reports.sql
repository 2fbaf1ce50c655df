CREATE TABLE "intelligence_reports" (
	"cache_key" text PRIMARY KEY NOT NULL,
	"report" jsonb NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
