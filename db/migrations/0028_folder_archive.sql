-- Update Folder Metadata's isArchive (docs/behaviour.md §19): whether a
-- folder is archived.  Archiving changes what the folder object says and
-- nothing else: an archived folder is still browsed, found and used.
ALTER TABLE folder
	ADD COLUMN is_archive TINYINT(1) NOT NULL DEFAULT 0;
