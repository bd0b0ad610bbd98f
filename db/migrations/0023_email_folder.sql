-- An email's folder by a foreign key, as templates, smart lists and smart
-- campaigns have theirs: an email stands in a folder or a program
-- (place_type, place_id), so the key is on a stored column that holds
-- the folder's id, or NULL in a program.  A Create Email takes the
-- shared lock the key's check takes on the folder's row, which the
-- folder delete holds exclusively (src/repo/repo_folder_delete.c): a
-- delete racing it cannot leave the email in no folder.
ALTER TABLE email
	ADD COLUMN folder_id INT GENERATED ALWAYS AS
	    (IF(place_type = 'Folder', place_id, NULL)) STORED,
	ADD KEY email_folder (folder_id),
	ADD CONSTRAINT email_folder_fk FOREIGN KEY (folder_id)
	    REFERENCES folder (id);
