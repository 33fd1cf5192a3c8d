CREATE TABLE "perp_funding_payments" (
	"user_id" text NOT NULL,
	"symbol" text NOT NULL,
	"funding_ts" bigint NOT NULL,
	"rate_e8" integer NOT NULL,
	"amount" numeric(40, 0) NOT NULL,
	"ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_liquidations" (
	"user_id" text NOT NULL,
	"symbol" text NOT NULL,
	"margin_mode" text NOT NULL,
	"side" text NOT NULL,
	"size" numeric(40, 0) NOT NULL,
	"mark_price" numeric(40, 0) NOT NULL,
	"equity" numeric(40, 0) NOT NULL,
	"insurance_delta" numeric(40, 0) NOT NULL,
	"ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_orders" (
	"id" bigint PRIMARY KEY NOT NULL,
	"client_order_id" text,
	"user_id" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"order_type" text NOT NULL,
	"time_in_force" text NOT NULL,
	"price" numeric(40, 0),
	"quantity" numeric(40, 0) NOT NULL,
	"lots" integer NOT NULL,
	"reduce_only" boolean NOT NULL,
	"trade_type" text NOT NULL,
	"trigger" text,
	"leverage" integer NOT NULL,
	"margin_mode" text NOT NULL,
	"filled_qty" numeric(40, 0) NOT NULL,
	"filled_quote" numeric(40, 0) NOT NULL,
	"fee" numeric(40, 0) NOT NULL,
	"realized_pnl" numeric(40, 0) NOT NULL,
	"hold" numeric(40, 0) NOT NULL,
	"take_profit" numeric(40, 0),
	"stop_loss" numeric(40, 0),
	"status" text NOT NULL,
	"closed" boolean NOT NULL,
	"created_ts" bigint NOT NULL,
	"updated_ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_position_history" (
	"user_id" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"margin_mode" text NOT NULL,
	"leverage" integer NOT NULL,
	"entry_price" numeric(40, 0) NOT NULL,
	"realized_pnl" numeric(40, 0) NOT NULL,
	"funding" numeric(40, 0) NOT NULL,
	"fees" numeric(40, 0) NOT NULL,
	"open_ts" bigint NOT NULL,
	"close_ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_trades" (
	"id" bigint PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"kind" text NOT NULL,
	"price" numeric(40, 0) NOT NULL,
	"quantity" numeric(40, 0) NOT NULL,
	"quote_amount" numeric(40, 0) NOT NULL,
	"taker_side" text NOT NULL,
	"maker_order_id" bigint,
	"taker_order_id" bigint,
	"maker_user_id" text NOT NULL,
	"taker_user_id" text NOT NULL,
	"maker_fee" numeric(40, 0) NOT NULL,
	"taker_fee" numeric(40, 0) NOT NULL,
	"maker_realized_pnl" numeric(40, 0) NOT NULL,
	"taker_realized_pnl" numeric(40, 0) NOT NULL,
	"ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "perp_funding_payments_key" ON "perp_funding_payments" USING btree ("user_id","symbol","funding_ts");--> statement-breakpoint
CREATE INDEX "perp_funding_payments_user_idx" ON "perp_funding_payments" USING btree ("user_id","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "perp_liquidations_key" ON "perp_liquidations" USING btree ("seq","user_id","symbol");--> statement-breakpoint
CREATE INDEX "perp_liquidations_user_idx" ON "perp_liquidations" USING btree ("user_id","ts");--> statement-breakpoint
CREATE INDEX "perp_orders_user_closed_idx" ON "perp_orders" USING btree ("user_id","closed","updated_ts");--> statement-breakpoint
CREATE UNIQUE INDEX "perp_position_history_key" ON "perp_position_history" USING btree ("seq","user_id","symbol");--> statement-breakpoint
CREATE INDEX "perp_position_history_user_idx" ON "perp_position_history" USING btree ("user_id","close_ts");--> statement-breakpoint
CREATE INDEX "perp_trades_maker_order_idx" ON "perp_trades" USING btree ("maker_order_id");--> statement-breakpoint
CREATE INDEX "perp_trades_taker_order_idx" ON "perp_trades" USING btree ("taker_order_id");--> statement-breakpoint
CREATE INDEX "perp_trades_symbol_ts_idx" ON "perp_trades" USING btree ("symbol","ts");