CREATE TABLE "wallet_address_book" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallet_address_book_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"coin" text NOT NULL,
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"label" text NOT NULL,
	"created_ts" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_transfers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallet_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"seq" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"coin" text NOT NULL,
	"from_account" text NOT NULL,
	"to_account" text NOT NULL,
	"amount" numeric(40, 0) NOT NULL,
	"client_id" text,
	"ts" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_withdrawals" (
	"id" bigint PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"client_id" text NOT NULL,
	"coin" text NOT NULL,
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"amount" numeric(40, 0) NOT NULL,
	"fee" numeric(40, 0) NOT NULL,
	"status" text NOT NULL,
	"approvals_required" integer NOT NULL,
	"approvals" jsonb NOT NULL,
	"from_address" text,
	"nonce" integer,
	"tx_hash" text,
	"raw_tx" text,
	"block_number" bigint,
	"reason" text DEFAULT '' NOT NULL,
	"reason_zh" text DEFAULT '' NOT NULL,
	"reason_en" text DEFAULT '' NOT NULL,
	"rejected_by" text,
	"created_ts" bigint NOT NULL,
	"updated_ts" bigint NOT NULL,
	"seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wallet_address_book_user_idx" ON "wallet_address_book" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_address_book_uq" ON "wallet_address_book" USING btree ("user_id","coin","chain","address");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_transfers_seq_uq" ON "wallet_transfers" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "wallet_transfers_user_idx" ON "wallet_transfers" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "wallet_withdrawals_user_idx" ON "wallet_withdrawals" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "wallet_withdrawals_status_idx" ON "wallet_withdrawals" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "wallet_withdrawals_client_idx" ON "wallet_withdrawals" USING btree ("user_id","client_id");