CREATE TABLE "inbox_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbox_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"key" text NOT NULL,
	"category" text NOT NULL,
	"kind" text NOT NULL,
	"params" text NOT NULL,
	"ts" bigint NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_messages_user_key" ON "inbox_messages" USING btree ("user_id","key");--> statement-breakpoint
CREATE INDEX "inbox_messages_user_ts" ON "inbox_messages" USING btree ("user_id","ts","id");--> statement-breakpoint
CREATE INDEX "inbox_messages_unread" ON "inbox_messages" USING btree ("user_id") WHERE "inbox_messages"."read_at" is null;