CREATE TABLE "banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"banner_type" text DEFAULT 'DATA_BANNER' NOT NULL,
	"title_zh" text NOT NULL,
	"title_en" text NOT NULL,
	"image_zh" text NOT NULL,
	"image_en" text NOT NULL,
	"link" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coins" (
	"code" text PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"scale" integer NOT NULL,
	"issue_time" text NOT NULL,
	"total_supply" text NOT NULL,
	"circulating_supply" text NOT NULL,
	"crowdfunding_price" text NOT NULL,
	"white_paper" text NOT NULL,
	"website" text NOT NULL,
	"block_explorer" text NOT NULL,
	"intro_zh" text NOT NULL,
	"intro_en" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "klines" (
	"symbol" text NOT NULL,
	"type" text NOT NULL,
	"period" text NOT NULL,
	"time" bigint NOT NULL,
	"open" numeric NOT NULL,
	"high" numeric NOT NULL,
	"low" numeric NOT NULL,
	"close" numeric NOT NULL,
	"volume" numeric NOT NULL,
	"quote_volume" numeric NOT NULL,
	CONSTRAINT "klines_symbol_type_period_time_pk" PRIMARY KEY("symbol","type","period","time")
);
--> statement-breakpoint
CREATE TABLE "markets" (
	"id" serial PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"type" text NOT NULL,
	"base" text NOT NULL,
	"quote" text NOT NULL,
	"price_decimals" integer NOT NULL,
	"qty_decimals" integer NOT NULL,
	"tick_size" text NOT NULL,
	"step_size" text NOT NULL,
	"min_qty" text NOT NULL,
	"min_notional" text NOT NULL,
	"maker_fee_ppm" integer NOT NULL,
	"taker_fee_ppm" integer NOT NULL,
	"listed_at" bigint NOT NULL,
	"is_new" boolean DEFAULT false NOT NULL,
	"demo_data" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"notice_type" text DEFAULT 'OFFICIAL' NOT NULL,
	"slug" text NOT NULL,
	"title_zh" text NOT NULL,
	"title_en" text NOT NULL,
	"content_zh" text NOT NULL,
	"content_en" text NOT NULL,
	"create_time" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "banners_slug_uq" ON "banners" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "markets_symbol_type_uq" ON "markets" USING btree ("symbol","type");--> statement-breakpoint
CREATE UNIQUE INDEX "notices_slug_uq" ON "notices" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "notices_time_idx" ON "notices" USING btree ("create_time");