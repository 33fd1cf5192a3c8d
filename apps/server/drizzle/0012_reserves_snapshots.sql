CREATE TABLE "reserves_leaves" (
	"snapshot_id" integer NOT NULL,
	"leaf_index" integer NOT NULL,
	"user_id" bigint NOT NULL,
	"salt" text NOT NULL,
	"balances" jsonb NOT NULL,
	CONSTRAINT "reserves_leaves_snapshot_id_leaf_index_pk" PRIMARY KEY("snapshot_id","leaf_index")
);
--> statement-breakpoint
CREATE TABLE "reserves_snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"root_hash" text NOT NULL,
	"leaf_count" integer NOT NULL,
	"assets" jsonb NOT NULL,
	"scales" jsonb NOT NULL,
	"liabilities" jsonb NOT NULL,
	"reserves" jsonb NOT NULL,
	"engine_seq" bigint,
	"operator_id" bigint,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reserves_leaves_user_uq" ON "reserves_leaves" USING btree ("snapshot_id","user_id");--> statement-breakpoint
CREATE INDEX "reserves_snapshots_created_idx" ON "reserves_snapshots" USING btree ("created_at");