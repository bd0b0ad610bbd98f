-- Custom object filters in the rule catalogue of smart lists and smart
-- campaigns (src/repo/repo_smart_lists.c, docs/assets.md).
--
-- Every approved custom object type is a filter rule type, made when
-- read as the lead fields' attribute rules are: activity-kind, id 200000
-- plus the type's id, named "Has " and the type's display name.  Its
-- constraints are the approved fields.  A field's constraint id must
-- outlive the field rows, which each type edit rewrites (co_field), so
-- it is a row here: made by the approval that first approves the field
-- (src/repo/repo_co_types.c), kept while the type lives, and the same
-- when a field of that name is approved again.  is_primary marks the
-- type's first dedupe field, the filter's primary constraint (dedupe
-- fields do not change after the first approval).
--
-- A rule that names the type is its use: Get Custom Object Dependent
-- Assets reads the rules (by rule type, hence the index) and Delete
-- Custom Object Type, deleteField and approve refuse while they use the
-- type or the field.
CREATE TABLE co_field_ref (
	id INT NOT NULL AUTO_INCREMENT,
	type_id INT NOT NULL,
	name VARCHAR(50) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
	is_primary TINYINT(1) NOT NULL DEFAULT 0,
	PRIMARY KEY (id),
	UNIQUE KEY co_field_ref_name (type_id, name),
	CONSTRAINT co_field_ref_type FOREIGN KEY (type_id)
		REFERENCES co_type (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO co_field_ref (type_id, name, is_primary)
SELECT f.type_id, f.name, f.is_dedupe AND f.pos = (SELECT MIN(d.pos)
    FROM co_field d WHERE d.type_id = f.type_id AND d.is_draft = 0 AND
    d.is_dedupe = 1)
FROM co_field f WHERE f.is_draft = 0 ORDER BY f.type_id, f.pos;

ALTER TABLE smart_list_rule ADD KEY smart_list_rule_type (rule_type_id, kind);
