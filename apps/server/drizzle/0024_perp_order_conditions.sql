ALTER TABLE "perp_orders" ADD COLUMN "cond_type" text;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "cond_stop_price" numeric(40, 0);--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "cond_working_type" text;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "cond_price_protect" boolean;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "cond_close_position" boolean;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "cond_callback_rate_bps" integer;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "cond_activation_price" numeric(40, 0);--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "cond_trailing_ref" numeric(40, 0);--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "cond_working_ts" bigint;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "cond_expire_reason" text;