CREATE TABLE "rebate_payouts" (
	"day" integer NOT NULL,
	"invitee_id" bigint NOT NULL,
	"inviter_id" bigint NOT NULL,
	"asset" text NOT NULL,
	"fee" numeric(40, 0) NOT NULL,
	"rebate" numeric(40, 0) NOT NULL,
	"paid" numeric(40, 0) NOT NULL,
	"ts" bigint NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "rebate_payouts_day_invitee_id_pk" PRIMARY KEY("day","invitee_id")
);
--> statement-breakpoint
CREATE INDEX "rebate_payouts_inviter_idx" ON "rebate_payouts" USING btree ("inviter_id","day");--> statement-breakpoint
CREATE INDEX "rebate_payouts_day_idx" ON "rebate_payouts" USING btree ("day");--> statement-breakpoint
CREATE INDEX "users_invited_by_idx" ON "users" USING btree ("invited_by","id");