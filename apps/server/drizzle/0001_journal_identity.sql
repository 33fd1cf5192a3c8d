ALTER TABLE "users" ALTER COLUMN "id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "projection_cursor" ADD COLUMN "journal_id" text;