-- Conversations (issue 59): a person's run of asks of one brain or brain set, and its turns. Each turn
-- keeps the question as asked, the standalone question that was searched, and the answer with its citations.
CREATE TABLE `conversations` (
  `id` text PRIMARY KEY NOT NULL,
  `account_id` text NOT NULL REFERENCES `accounts`(`id`) ON DELETE cascade,
  `brain_id` text NOT NULL REFERENCES `brains`(`id`) ON DELETE cascade,
  `set_id` text REFERENCES `brain_sets`(`id`) ON DELETE cascade,
  `title` text NOT NULL,
  `turn_count` integer DEFAULT 0 NOT NULL,
  `created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
  `updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `conversations_account_time` ON `conversations` (`account_id`, `updated_at`);
--> statement-breakpoint
CREATE TABLE `conversation_turns` (
  `id` text PRIMARY KEY NOT NULL,
  `conversation_id` text NOT NULL REFERENCES `conversations`(`id`) ON DELETE cascade,
  `seq` integer NOT NULL,
  `ask_id` text NOT NULL,
  `question` text NOT NULL,
  `standalone_question` text NOT NULL,
  `answer_md` text NOT NULL,
  `citations` text NOT NULL,
  `thin` integer NOT NULL,
  `created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversation_turns_seq` ON `conversation_turns` (`conversation_id`, `seq`);
