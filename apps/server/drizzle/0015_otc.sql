CREATE TABLE "otc_ads" (
	"id" bigint PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"side" text NOT NULL,
	"asset" text NOT NULL,
	"fiat" text NOT NULL,
	"price_type" text NOT NULL,
	"price" numeric(40, 0),
	"float_ppm" integer,
	"min_fiat" numeric(40, 0) NOT NULL,
	"max_fiat" numeric(40, 0) NOT NULL,
	"payment_window_ms" integer NOT NULL,
	"total_qty" numeric(40, 0) NOT NULL,
	"remaining_qty" numeric(40, 0) NOT NULL,
	"status" text NOT NULL,
	"meta" text NOT NULL,
	"created_ts" bigint NOT NULL,
	"updated_ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otc_chat_reads" (
	"order_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"last_id" bigint NOT NULL,
	CONSTRAINT "otc_chat_reads_order_id_user_id_pk" PRIMARY KEY("order_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "otc_merchants" (
	"user_id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"deposit" numeric(40, 0) NOT NULL,
	"operator_id" text,
	"reason" text,
	"created_ts" bigint NOT NULL,
	"updated_ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otc_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"sender" text NOT NULL,
	"author_id" text NOT NULL,
	"text" text NOT NULL,
	"image_id" text NOT NULL,
	"created_ts" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "otc_orders" (
	"id" bigint PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"ad_id" bigint NOT NULL,
	"maker_id" text NOT NULL,
	"taker_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"seller_id" text NOT NULL,
	"asset" text NOT NULL,
	"fiat" text NOT NULL,
	"price" numeric(40, 0) NOT NULL,
	"quantity" numeric(40, 0) NOT NULL,
	"fiat_amount" numeric(40, 0) NOT NULL,
	"state" text NOT NULL,
	"created_ts" bigint NOT NULL,
	"deadline_ts" bigint NOT NULL,
	"paid_ts" bigint,
	"appeal_by" text,
	"appeal_ts" bigint,
	"end_reason" text,
	"resolved_by" text,
	"reason" text,
	"meta" text NOT NULL,
	"updated_ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "otc_ads_status_side_idx" ON "otc_ads" USING btree ("status","side");--> statement-breakpoint
CREATE INDEX "otc_ads_user_idx" ON "otc_ads" USING btree ("user_id","updated_ts");--> statement-breakpoint
CREATE INDEX "otc_merchants_state_idx" ON "otc_merchants" USING btree ("state","updated_ts");--> statement-breakpoint
CREATE INDEX "otc_messages_order_idx" ON "otc_messages" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "otc_orders_buyer_idx" ON "otc_orders" USING btree ("buyer_id","created_ts");--> statement-breakpoint
CREATE INDEX "otc_orders_seller_idx" ON "otc_orders" USING btree ("seller_id","created_ts");--> statement-breakpoint
CREATE INDEX "otc_orders_maker_idx" ON "otc_orders" USING btree ("maker_id","updated_ts");--> statement-breakpoint
CREATE INDEX "otc_orders_state_idx" ON "otc_orders" USING btree ("state","created_ts");