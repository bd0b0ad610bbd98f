-- "My Tokens" (docs/behaviour.md §21): the tokens defined on a folder or
-- a program, read and written by the Tokens operations and read by
-- campaigns, which resolve {{my.<name>}} from the nearest folder or
-- program up the tree that defines the name (src/repo/repo_tokens.c).
--
-- A token stands on exactly one of a folder and a program; its name is
-- unique there.  Deleting the folder or program deletes its tokens (a
-- token is not content that keeps a folder from being deleted).  type is
-- one of the documented words: date, number, rich text, score, sfdc
-- campaign, text (src/model/token.c checks the value against it).
--
-- Numbered 0027 after the numbers taken by work in progress (a gap is
-- fine: migrations apply in order of number).
CREATE TABLE folder_token (
	id INT NOT NULL AUTO_INCREMENT,
	folder_id INT NULL,
	program_id INT NULL,
	name VARCHAR(50) NOT NULL,
	type VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
	value TEXT NOT NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY folder_token_folder (folder_id, name),
	UNIQUE KEY folder_token_program (program_id, name),
	CONSTRAINT folder_token_folder_fk FOREIGN KEY (folder_id)
		REFERENCES folder (id) ON DELETE CASCADE,
	CONSTRAINT folder_token_program_fk FOREIGN KEY (program_id)
		REFERENCES program (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
