CREATE TABLE "chain_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"chain" text NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	CONSTRAINT "chain_blocks_chain_number_pk" PRIMARY KEY("chain","number")
);
--> statement-breakpoint
CREATE TABLE "wallet_deposits" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"coin" text NOT NULL,
	"chain" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" text NOT NULL,
	"chain_amount" text NOT NULL,
	"status" text NOT NULL,
	"credited_seq" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_deposits_tx_uq" ON "wallet_deposits" USING btree ("chain","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "wallet_deposits_user_idx" ON "wallet_deposits" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "wallet_deposits_status_idx" ON "wallet_deposits" USING btree ("status","id");