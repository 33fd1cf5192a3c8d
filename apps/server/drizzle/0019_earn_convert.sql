CREATE TABLE "convert_quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"from_coin" text NOT NULL,
	"to_coin" text NOT NULL,
	"amount" numeric(40, 0) NOT NULL,
	"receive" numeric(40, 0) NOT NULL,
	"fee" numeric(40, 0) NOT NULL,
	"created_ts" bigint NOT NULL,
	"expires_ts" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "earn_locks" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"user_id" text NOT NULL,
	"client_id" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(40, 0) NOT NULL,
	"apr_ppm" integer NOT NULL,
	"term_days" integer NOT NULL,
	"early_redeem" text NOT NULL,
	"start_ts" bigint NOT NULL,
	"end_ts" bigint NOT NULL,
	"days_paid" integer NOT NULL,
	"interest_paid" numeric(40, 0) NOT NULL,
	"status" text NOT NULL,
	"redeem_kind" text,
	"redeemed_ts" bigint,
	"returned" numeric(40, 0),
	"forfeited" numeric(40, 0),
	"updated_ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "convert_quotes_expiry_idx" ON "convert_quotes" USING btree ("expires_ts");--> statement-breakpoint
CREATE INDEX "earn_locks_user_idx" ON "earn_locks" USING btree ("user_id","status","id");