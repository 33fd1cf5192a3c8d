CREATE INDEX "login_failures_created_idx" ON "login_failures" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_revoked_idx" ON "sessions" USING btree ("revoked_at");--> statement-breakpoint
CREATE INDEX "demo_outbox_created_idx" ON "demo_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "verification_codes_expires_idx" ON "verification_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "klines_period_time_idx" ON "klines" USING btree ("period","time");--> statement-breakpoint
CREATE INDEX "spot_orders_closed_updated_idx" ON "spot_orders" USING btree ("closed","updated_ts");--> statement-breakpoint
CREATE INDEX "spot_trades_ts_idx" ON "spot_trades" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "operator_login_failures_at_idx" ON "operator_login_failures" USING btree ("at");--> statement-breakpoint
CREATE INDEX "operator_sessions_last_seen_idx" ON "operator_sessions" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "operator_sessions_revoked_idx" ON "operator_sessions" USING btree ("revoked_at");--> statement-breakpoint
CREATE INDEX "security_events_created_idx" ON "security_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "perp_orders_closed_updated_idx" ON "perp_orders" USING btree ("closed","updated_ts");--> statement-breakpoint
CREATE INDEX "perp_trades_ts_idx" ON "perp_trades" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "inbox_messages_ts_idx" ON "inbox_messages" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "perp_open_interest_samples_ts_idx" ON "perp_open_interest_samples" USING btree ("ts");