CREATE TABLE "entity_esg_scores" (
	"lei" text NOT NULL,
	"inputs_key" text NOT NULL,
	"data_version" text NOT NULL,
	"result" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "entity_esg_scores_lei_inputs_key_pk" PRIMARY KEY("lei","inputs_key")
);
--> statement-breakpoint
CREATE TABLE "pep_screen_cache" (
	"screen_key" text PRIMARY KEY NOT NULL,
	"data_version" text NOT NULL,
	"result" jsonb NOT NULL,
	"cached_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
