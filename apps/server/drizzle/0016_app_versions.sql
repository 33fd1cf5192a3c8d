CREATE TABLE "app_bundles" (
	"version_id" bigint PRIMARY KEY NOT NULL,
	"zip" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "app_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"platform" text NOT NULL,
	"version" text NOT NULL,
	"version_order" bigint NOT NULL,
	"reasons_zh" text NOT NULL,
	"reasons_en" text NOT NULL,
	"force" boolean DEFAULT false NOT NULL,
	"download_url" text DEFAULT '' NOT NULL,
	"bundle_sha256" text DEFAULT '' NOT NULL,
	"bundle_size" integer DEFAULT 0 NOT NULL,
	"published_by" bigint NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"withdrawn_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "app_bundles" ADD CONSTRAINT "app_bundles_version_id_app_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_versions_platform_version_uq" ON "app_versions" USING btree ("platform","version");--> statement-breakpoint
CREATE INDEX "app_versions_platform_order_idx" ON "app_versions" USING btree ("platform","version_order");