-- Single sign-on (issue 56): identities at an OpenID provider, (issuer, subject) → account, with the role
-- the claim mapping gave; sign-ins in progress (state, nonce, PKCE verifier) for ten minutes at most.
CREATE TABLE `sso_identities` (
	`issuer` text NOT NULL,
	`subject` text NOT NULL,
	`account_id` text NOT NULL,
	`email` text,
	`role` text,
	`admin_granted` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_sign_in_at` integer NOT NULL,
	PRIMARY KEY(`issuer`, `subject`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sso_identities_account` ON `sso_identities` (`account_id`);
--> statement-breakpoint
CREATE TABLE `sso_flows` (
	`hash` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`state` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`return_to` text NOT NULL,
	`expires_at` integer NOT NULL
);
