CREATE TABLE "kyc_applications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "kyc_applications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"level" text NOT NULL,
	"state" text NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"real_name" text DEFAULT '' NOT NULL,
	"id_type" text DEFAULT '' NOT NULL,
	"id_number" text DEFAULT '' NOT NULL,
	"guardian_consent" boolean DEFAULT false NOT NULL,
	"front_image_id" text,
	"back_image_id" text,
	"handheld_image_id" text,
	"reject_reason_zh" text DEFAULT '' NOT NULL,
	"reject_reason_en" text DEFAULT '' NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_methods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"pay_type" text NOT NULL,
	"real_name" text NOT NULL,
	"bank_name" text DEFAULT '' NOT NULL,
	"branch" text DEFAULT '' NOT NULL,
	"card_no" text DEFAULT '' NOT NULL,
	"account" text DEFAULT '' NOT NULL,
	"qr_image_id" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"mime" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "kyc_applications_user_idx" ON "kyc_applications" USING btree ("user_id","level","id");--> statement-breakpoint
CREATE INDEX "kyc_applications_state_idx" ON "kyc_applications" USING btree ("state","id");--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_applications_one_pending_uq" ON "kyc_applications" USING btree ("user_id","level") WHERE "kyc_applications"."state" = 'PENDING';--> statement-breakpoint
CREATE INDEX "payment_methods_user_idx" ON "payment_methods" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "uploads_user_idx" ON "uploads" USING btree ("user_id","created_at");