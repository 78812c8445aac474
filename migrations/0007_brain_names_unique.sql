-- Brain names are unique per owner regardless of case, enforced by the database so concurrent creates and
-- renames cannot both pass the service's check (seen with a remote libSQL server, where requests overlap).
CREATE UNIQUE INDEX `brains_account_name` ON `brains` (`account_id`, lower(`name`));
