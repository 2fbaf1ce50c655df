CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key_hash" text NOT NULL,
	"label" text NOT NULL,
	"requests_per_minute" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_windows" (
	"key_id" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"requests" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_key_id_window_start_pk" PRIMARY KEY("key_id","window_start")
);
