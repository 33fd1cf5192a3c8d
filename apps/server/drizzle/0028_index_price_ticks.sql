CREATE TABLE "index_price_ticks" (
	"symbol" text NOT NULL,
	"ts" bigint NOT NULL,
	"price" numeric,
	"median" numeric,
	"stale" boolean NOT NULL,
	"reason" text,
	"used" integer NOT NULL,
	"inputs" jsonb NOT NULL,
	CONSTRAINT "index_price_ticks_symbol_ts_pk" PRIMARY KEY("symbol","ts")
);
--> statement-breakpoint
CREATE INDEX "index_price_ticks_ts_idx" ON "index_price_ticks" USING btree ("ts");