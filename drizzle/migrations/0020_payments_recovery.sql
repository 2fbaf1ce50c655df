ALTER TABLE "payments" ADD COLUMN "settling" jsonb;--> statement-breakpoint
CREATE INDEX "payments_pending" ON "payments" USING btree ("updated_at") WHERE "payments"."status" = 'PENDING';