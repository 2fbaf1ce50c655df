CREATE TABLE "ubo_chain_cache" (
	"lei" text NOT NULL,
	"deep" boolean NOT NULL,
	"data_version" text NOT NULL,
	"result" jsonb NOT NULL,
	"cached_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ubo_chain_cache_lei_deep_pk" PRIMARY KEY("lei","deep")
);
