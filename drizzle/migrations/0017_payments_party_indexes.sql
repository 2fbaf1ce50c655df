CREATE INDEX "payments_creditor_wallet" ON "payments" USING btree (lower("request" -> 'creditor' ->> 'walletAddress'),"submitted_at");--> statement-breakpoint
CREATE INDEX "payments_debtor_wallet" ON "payments" USING btree (lower("request" -> 'debtor' ->> 'walletAddress'),"submitted_at");--> statement-breakpoint
CREATE INDEX "payments_creditor_lei" ON "payments" USING btree (("request" -> 'creditor' ->> 'lei'),"submitted_at");--> statement-breakpoint
CREATE INDEX "payments_debtor_lei" ON "payments" USING btree (("request" -> 'debtor' ->> 'lei'),"submitted_at");