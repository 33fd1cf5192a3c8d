CREATE TABLE "perp_open_interest_samples" (
	"symbol" text NOT NULL,
	"ts" bigint NOT NULL,
	"open_interest" numeric(40, 0) NOT NULL,
	"mark_price" numeric(40, 0) NOT NULL,
	"qty_decimals" integer NOT NULL,
	"price_decimals" integer NOT NULL,
	CONSTRAINT "perp_open_interest_samples_symbol_ts_pk" PRIMARY KEY("symbol","ts")
);
