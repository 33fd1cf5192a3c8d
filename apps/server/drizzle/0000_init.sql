CREATE TABLE "captcha_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"random_code" text NOT NULL,
	"answer_x" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"passed" boolean DEFAULT false NOT NULL,
	"validate_hash" text,
	"pass_expires_at" timestamp with time zone,
	"pass_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "demo_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "demo_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account" text NOT NULL,
	"area_code" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "favorites" (
	"user_id" bigint NOT NULL,
	"pairs_name" text NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorites_user_id_pairs_name_type_pk" PRIMARY KEY("user_id","pairs_name","type")
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account" text NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_hash" text NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"uuid" text NOT NULL,
	"mail" text,
	"phone" text,
	"area_code" text DEFAULT '86' NOT NULL,
	"password_hash" text NOT NULL,
	"nick_name" text DEFAULT '' NOT NULL,
	"wel_code" text NOT NULL,
	"invited_by" bigint,
	"card_no" text DEFAULT '' NOT NULL,
	"card_state" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "verification_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account" text NOT NULL,
	"type" text NOT NULL,
	"salt" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
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
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "captcha_challenges_expires_idx" ON "captcha_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "demo_outbox_account_idx" ON "demo_outbox" USING btree ("account","id");--> statement-breakpoint
CREATE INDEX "login_failures_account_idx" ON "login_failures" USING btree ("account","created_at");--> statement-breakpoint
CREATE INDEX "login_failures_ip_idx" ON "login_failures" USING btree ("ip","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_uq" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_uuid_uq" ON "users" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "users_mail_uq" ON "users" USING btree ("mail");--> statement-breakpoint
CREATE UNIQUE INDEX "users_phone_uq" ON "users" USING btree ("area_code","phone");--> statement-breakpoint
CREATE UNIQUE INDEX "users_wel_code_uq" ON "users" USING btree ("wel_code");--> statement-breakpoint
CREATE INDEX "verification_codes_account_idx" ON "verification_codes" USING btree ("account","type","created_at");--> statement-breakpoint
CREATE INDEX "verification_codes_ip_idx" ON "verification_codes" USING btree ("ip","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "banners_slug_uq" ON "banners" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "markets_symbol_type_uq" ON "markets" USING btree ("symbol","type");--> statement-breakpoint
CREATE UNIQUE INDEX "notices_slug_uq" ON "notices" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "notices_time_idx" ON "notices" USING btree ("create_time");--> statement-breakpoint
CREATE INDEX "spot_orders_user_closed_idx" ON "spot_orders" USING btree ("user_id","closed","updated_ts");--> statement-breakpoint
CREATE INDEX "spot_trades_maker_order_idx" ON "spot_trades" USING btree ("maker_order_id");--> statement-breakpoint
CREATE INDEX "spot_trades_taker_order_idx" ON "spot_trades" USING btree ("taker_order_id");--> statement-breakpoint
CREATE INDEX "spot_trades_symbol_ts_idx" ON "spot_trades" USING btree ("symbol","ts");