-- Program tags and period costs (docs/behaviour.md §22): a program has
-- at most one value of each tag type, and an ordered list of costs
-- (start date, amount, note), written by Create Program and Update
-- Program Metadata and shown by Get Program by Id and by Name; Get
-- Programs by Tag finds programs through the index program_tag_value
-- (src/repo/repo_program_assets.c).
CREATE TABLE program_tag (
	program_id INT NOT NULL,
	tag_type_id INT NOT NULL,
	value VARCHAR(255) NOT NULL,
	PRIMARY KEY (program_id, tag_type_id),
	KEY program_tag_value (tag_type_id, value, program_id),
	CONSTRAINT program_tag_program FOREIGN KEY (program_id)
		REFERENCES program (id) ON DELETE CASCADE,
	CONSTRAINT program_tag_type FOREIGN KEY (tag_type_id)
		REFERENCES tag_type (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE program_cost (
	program_id INT NOT NULL,
	position INT NOT NULL,
	start_date DATE NOT NULL,
	cost BIGINT NOT NULL,
	note VARCHAR(255) NULL,
	PRIMARY KEY (program_id, position),
	CONSTRAINT program_cost_program FOREIGN KEY (program_id)
		REFERENCES program (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
