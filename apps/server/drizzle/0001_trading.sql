CREATE TABLE "projection_cursor" (
	"name" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spot_orders" (
	"id" bigint PRIMARY KEY NOT NULL,
	"client_order_id" text,
	"user_id" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"order_type" text NOT NULL,
	"time_in_force" text NOT NULL,
	"price" numeric(40, 0),
	"quantity" numeric(40, 0),
	"quote_amount" numeric(40, 0),
	"filled_qty" numeric(40, 0) NOT NULL,
	"filled_quote" numeric(40, 0) NOT NULL,
	"fee" numeric(40, 0) NOT NULL,
	"fee_asset" text NOT NULL,
	"status" text NOT NULL,
	"closed" boolean NOT NULL,
	"created_ts" bigint NOT NULL,
	"updated_ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spot_trades" (
	"id" bigint PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"price" numeric(40, 0) NOT NULL,
	"quantity" numeric(40, 0) NOT NULL,
	"quote_amount" numeric(40, 0) NOT NULL,
	"taker_side" text NOT NULL,
	"maker_order_id" bigint NOT NULL,
	"taker_order_id" bigint NOT NULL,
	"maker_user_id" text NOT NULL,
	"taker_user_id" text NOT NULL,
	"maker_fee" numeric(40, 0) NOT NULL,
	"maker_fee_asset" text NOT NULL,
	"taker_fee" numeric(40, 0) NOT NULL,
	"taker_fee_asset" text NOT NULL,
	"ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "spot_orders_user_closed_idx" ON "spot_orders" USING btree ("user_id","closed","updated_ts");--> statement-breakpoint
CREATE INDEX "spot_trades_maker_order_idx" ON "spot_trades" USING btree ("maker_order_id");--> statement-breakpoint
CREATE INDEX "spot_trades_taker_order_idx" ON "spot_trades" USING btree ("taker_order_id");--> statement-breakpoint
CREATE INDEX "spot_trades_symbol_ts_idx" ON "spot_trades" USING btree ("symbol","ts");