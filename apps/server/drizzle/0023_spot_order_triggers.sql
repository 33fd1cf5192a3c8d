ALTER TABLE "spot_orders" ADD COLUMN "stop_kind" text;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "stop_price" numeric(40, 0);--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "trailing_delta" integer;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "working_ts" bigint;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "expire_reason" text;