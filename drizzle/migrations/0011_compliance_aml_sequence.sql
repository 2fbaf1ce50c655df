DROP INDEX "aml_screenings_events";--> statement-breakpoint
ALTER TABLE "aml_screenings" ADD COLUMN "sequence" integer NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "aml_screenings_wallet_sequence" ON "aml_screenings" USING btree ("wallet_key","sequence");--> statement-breakpoint
CREATE INDEX "aml_screenings_events" ON "aml_screenings" USING btree ("wallet_key","sequence") WHERE "aml_screenings"."level" <> 'INFO';