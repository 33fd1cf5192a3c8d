CREATE TABLE "support_canned_replies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"text_zh" text NOT NULL,
	"text_en" text NOT NULL,
	"updated_ts" bigint NOT NULL,
	"deleted_ts" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_conversations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"lang" text NOT NULL,
	"waiting_since_ts" bigint NOT NULL,
	"assigned_operator_id" bigint,
	"operator_unread" integer DEFAULT 0 NOT NULL,
	"user_unread" integer DEFAULT 0 NOT NULL,
	"last_message" text DEFAULT '' NOT NULL,
	"last_message_ts" bigint NOT NULL,
	"created_ts" bigint NOT NULL,
	"closed_ts" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"sender" text NOT NULL,
	"operator_id" bigint,
	"operator_name" text DEFAULT '' NOT NULL,
	"text" text NOT NULL,
	"image_id" text DEFAULT '' NOT NULL,
	"created_ts" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "support_conversations_user_idx" ON "support_conversations" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "support_conversations_waiting_idx" ON "support_conversations" USING btree ("closed_ts","waiting_since_ts");--> statement-breakpoint
CREATE UNIQUE INDEX "support_conversations_open_uq" ON "support_conversations" USING btree ("user_id") WHERE "support_conversations"."closed_ts" = 0;--> statement-breakpoint
CREATE INDEX "support_messages_user_idx" ON "support_messages" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "support_messages_conversation_idx" ON "support_messages" USING btree ("conversation_id","id");