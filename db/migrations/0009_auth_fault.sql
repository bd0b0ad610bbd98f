-- Fault plans (README.md, Fault injection): with fault_injection on, each
-- row makes one call of its client answer its code, oldest first, and is
-- deleted by that call (src/repo/repo_auth.c).  Filled by mautoctl fault.
CREATE TABLE auth_fault (
	id BIGINT NOT NULL AUTO_INCREMENT,
	client_ref BIGINT NOT NULL,
	code SMALLINT NOT NULL,
	PRIMARY KEY (id),
	KEY auth_fault_client (client_ref, id),
	CONSTRAINT auth_fault_client_fk FOREIGN KEY (client_ref)
		REFERENCES auth_client (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
