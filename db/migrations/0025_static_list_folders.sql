-- Static lists as assets (docs/behaviour.md §20): a list stands in a
-- folder of the Lead Database tree (folders of kind 'staticList', under
-- a system root made here) or in a program (program_id), never both.
-- Lists made before stand in the root unless a program holds them.
INSERT INTO folder (name, description, kind, parent_id, workspace_id,
    is_system, created_at, updated_at)
VALUES ('Lead Database', NULL, 'staticList', NULL, 1, 1, UTC_TIMESTAMP(),
    UTC_TIMESTAMP());

ALTER TABLE static_list
	ADD COLUMN folder_id INT NULL AFTER description,
	ADD KEY static_list_folder (folder_id, id),
	ADD KEY static_list_program (program_id, id),
	ADD CONSTRAINT static_list_folder_fk FOREIGN KEY (folder_id)
	    REFERENCES folder (id);

UPDATE static_list SET folder_id = (SELECT MIN(id) FROM folder
    WHERE kind = 'staticList' AND parent_id IS NULL)
WHERE program_id IS NULL;
