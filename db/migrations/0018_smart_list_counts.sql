-- Cheaper smart campaign and smart list reads
-- (src/repo/repo_smart_lists.c, src/repo/repo_smart_campaigns.c).
--
-- A smart list's trigger_count and filter_count are the numbers of its
-- rules that are triggers and that are filters, and api_requested says
-- whether one of its triggers is Campaign is Requested (rule type
-- 100004) from the source "Web Service API" (a value of its condition
-- 1).  A campaign's type and status follow from them
-- (docs/behaviour.md §10.1).  Every rule change writes them in its own
-- transaction, under the list's row lock, so reads need no count of
-- rules.  The UPDATE below fills them for the lists there are.
ALTER TABLE smart_list
	ADD COLUMN trigger_count INT NOT NULL DEFAULT 0,
	ADD COLUMN filter_count INT NOT NULL DEFAULT 0,
	ADD COLUMN api_requested TINYINT(1) NOT NULL DEFAULT 0;

UPDATE smart_list l SET
	trigger_count = (SELECT COUNT(*) FROM smart_list_rule r
	    WHERE r.smart_list_id = l.id AND r.is_trigger = 1),
	filter_count = (SELECT COUNT(*) FROM smart_list_rule r
	    WHERE r.smart_list_id = l.id AND r.is_trigger = 0),
	api_requested = EXISTS (SELECT 1 FROM smart_list_rule r
	    JOIN smart_list_condition k ON k.rule_id = r.id
	    WHERE r.smart_list_id = l.id AND r.is_trigger = 1 AND
	    r.kind = 'activity' AND r.rule_type_id = 100004 AND
	    k.attribute_id = 1 AND k.vals LIKE '%"Web Service API"%');

-- Used By finds the campaigns whose flow names a campaign by its id (a
-- value of a Request Campaign step): an index of the values, by their
-- first characters (a value may be up to 2,000), so the lookup reads
-- the few values that match instead of every value of every flow.
ALTER TABLE sc_choice_attr
	ADD KEY sc_choice_attr_value (value(32));
