-- Kept renderings of smart campaign flows and smart list rules
-- (src/repo/repo_smart_campaigns.c, src/repo/repo_smart_lists.c).
--
-- A campaign's flow and a list's rules are rows in five tables; reading
-- one back joins them, names each rule and step from the catalogues and
-- the lead and custom object schemas, and writes JSON.  The reply text
-- of that work is kept on the owner's row, so that a read of an
-- unchanged flow or rule set is one row:
--
--   flow_json, rules_json  the JSON text of the reply's "flow" and
--                          "rules" members, or NULL when none is kept;
--   flow_rev, rules_rev    moved on (and the text set to NULL) by every
--                          transaction that changes the flow or rules;
--                          a reader that rendered the text keeps it
--                          only while the revision is still the one it
--                          read (UPDATE ... WHERE rev = ?), so a change
--                          made meanwhile is never covered up;
--   *_lead_ver, *_co_ver   lead_schema.version and co_schema.version
--                          the text was rendered under: names of rules
--                          come from lead fields and custom object
--                          types, which change at run time, and a text
--                          whose versions are not the current ones is
--                          not used.
ALTER TABLE smart_campaign
	ADD COLUMN flow_rev INT UNSIGNED NOT NULL DEFAULT 0,
	ADD COLUMN flow_lead_ver BIGINT NOT NULL DEFAULT 0,
	ADD COLUMN flow_co_ver BIGINT NOT NULL DEFAULT 0,
	ADD COLUMN flow_json MEDIUMTEXT NULL;

ALTER TABLE smart_list
	ADD COLUMN rules_rev INT UNSIGNED NOT NULL DEFAULT 0,
	ADD COLUMN rules_lead_ver BIGINT NOT NULL DEFAULT 0,
	ADD COLUMN rules_co_ver BIGINT NOT NULL DEFAULT 0,
	ADD COLUMN rules_json MEDIUMTEXT NULL;
