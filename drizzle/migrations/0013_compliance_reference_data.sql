CREATE TABLE "fatf_jurisdictions" (
	"statement_date" date NOT NULL,
	"list" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"plenary" text NOT NULL,
	"call" text,
	"current" boolean NOT NULL,
	CONSTRAINT "fatf_jurisdictions_statement_date_list_code_pk" PRIMARY KEY("statement_date","list","code")
);
--> statement-breakpoint
CREATE TABLE "lei_records" (
	"lei" text PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"other_names" jsonb NOT NULL,
	"status" text NOT NULL,
	"entity_status" text NOT NULL,
	"registration_status" text NOT NULL,
	"jurisdiction" text,
	"country" text,
	"direct_parent_lei" text,
	"ultimate_parent_lei" text,
	"direct_parent_link" text,
	"ultimate_parent_link" text,
	"direct_parent_exception" text,
	"ultimate_parent_exception" text,
	"as_of" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lei_relationships" (
	"child_lei" text NOT NULL,
	"parent_lei" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "lei_relationships_child_lei_parent_lei_type_pk" PRIMARY KEY("child_lei","parent_lei","type")
);
--> statement-breakpoint
CREATE TABLE "pep_records" (
	"dataset" text NOT NULL,
	"seq" integer NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"other_names" text[] NOT NULL,
	"position" text NOT NULL,
	"country" text,
	"country_name" text NOT NULL,
	"current" boolean NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "pep_records_dataset_seq_pk" PRIMARY KEY("dataset","seq")
);
--> statement-breakpoint
CREATE TABLE "reference_datasets" (
	"dataset" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"url" text NOT NULL,
	"as_of" text NOT NULL,
	"licence" text NOT NULL,
	"records" integer NOT NULL,
	"sha256" text NOT NULL,
	"files" jsonb NOT NULL,
	"loaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sdn_addresses" (
	"ent_num" integer NOT NULL,
	"add_num" integer NOT NULL,
	"address" text,
	"city_state_zip" text,
	"country" text,
	CONSTRAINT "sdn_addresses_ent_num_add_num_pk" PRIMARY KEY("ent_num","add_num")
);
--> statement-breakpoint
CREATE TABLE "sdn_aliases" (
	"ent_num" integer NOT NULL,
	"alt_num" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"remarks" text,
	CONSTRAINT "sdn_aliases_ent_num_alt_num_pk" PRIMARY KEY("ent_num","alt_num")
);
--> statement-breakpoint
CREATE TABLE "sdn_digital_currency_addresses" (
	"ent_num" integer NOT NULL,
	"currency" text NOT NULL,
	"address" text NOT NULL,
	CONSTRAINT "sdn_digital_currency_addresses_ent_num_currency_address_pk" PRIMARY KEY("ent_num","currency","address")
);
--> statement-breakpoint
CREATE TABLE "sdn_entries" (
	"ent_num" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"programs" text[] NOT NULL,
	"title" text,
	"remarks" text
);
--> statement-breakpoint
CREATE INDEX "lei_records_direct_parent" ON "lei_records" USING btree ("direct_parent_lei");--> statement-breakpoint
CREATE INDEX "lei_records_ultimate_parent" ON "lei_records" USING btree ("ultimate_parent_lei");--> statement-breakpoint
CREATE INDEX "lei_relationships_parent" ON "lei_relationships" USING btree ("parent_lei");--> statement-breakpoint
CREATE INDEX "pep_records_id" ON "pep_records" USING btree ("id");--> statement-breakpoint
CREATE INDEX "sdn_digital_currency_addresses_address" ON "sdn_digital_currency_addresses" USING btree ("address");