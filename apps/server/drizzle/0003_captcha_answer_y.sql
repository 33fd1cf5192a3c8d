ALTER TABLE "captcha_challenges" ADD COLUMN "answer_y" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "captcha_challenges" ADD COLUMN "start_y" integer DEFAULT 0 NOT NULL;