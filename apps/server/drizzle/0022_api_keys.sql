CREATE TABLE "api_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"label" text NOT NULL,
	"key_type" text NOT NULL,
	"api_key" text NOT NULL,
	"sealed_secret" text,
	"public_key" text,
	"spot_trade" boolean DEFAULT false NOT NULL,
	"futures_trade" boolean DEFAULT false NOT NULL,
	"withdraw" boolean DEFAULT false NOT NULL,
	"ip_whitelist" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_api_key_uq" ON "api_keys" USING btree ("api_key");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id","id");