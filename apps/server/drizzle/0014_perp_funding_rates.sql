CREATE TABLE "perp_funding_rates" (
	"symbol" text NOT NULL,
	"funding_ts" bigint NOT NULL,
	"rate_e8" integer NOT NULL,
	"mark_price" numeric(40, 0) NOT NULL,
	"paid" numeric(40, 0) NOT NULL,
	"received" numeric(40, 0) NOT NULL,
	"positions" integer NOT NULL,
	"ts" bigint NOT NULL,
	CONSTRAINT "perp_funding_rates_symbol_funding_ts_pk" PRIMARY KEY("symbol","funding_ts")
);
