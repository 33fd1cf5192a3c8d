CREATE TABLE "login_counters" (
	"account" text NOT NULL,
	"ip" text NOT NULL,
	"attempts" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_counters_account_ip_pk" PRIMARY KEY("account","ip")
);
--> statement-breakpoint
CREATE INDEX "login_counters_last_at_idx" ON "login_counters" USING btree ("last_at");