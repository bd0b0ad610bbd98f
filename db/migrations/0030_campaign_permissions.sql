-- The lead database's campaign operations (docs/behaviour.md §23) take
-- the permissions Read-Only Campaigns (Get Campaigns, Get Campaign by
-- Id) and Read-Write Campaigns (which implies it).  The roles a new
-- instance has get them as they have the other groups': admin both,
-- readonly the read.
INSERT INTO auth_role_perm (role_id, perm)
	SELECT r.id, p.perm FROM auth_role r JOIN (
		SELECT 'Read-Only Campaigns' AS perm
		UNION ALL SELECT 'Read-Write Campaigns'
	) p WHERE r.name = 'admin';

INSERT INTO auth_role_perm (role_id, perm)
	SELECT r.id, 'Read-Only Campaigns' FROM auth_role r
	WHERE r.name = 'readonly';
