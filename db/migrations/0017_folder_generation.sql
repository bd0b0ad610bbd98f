-- Cheaper landing page template reads (src/repo/repo_lp_templates.c).
--
-- A folder's content generation: a number every change of what a browse
-- of the folder shows moves on, in the transaction of the change (today
-- the landing page templates: create, clone, metadata, content, approval,
-- deletion; mautoctl reset moves every folder's).  The workers of a host
-- keep the pages they answered keyed by folder and generation
-- (src/util/pagecache.c, src/api/api_lp_templates.c), and read the
-- generation with the folder row every browse reads anyway, so a page is
-- served again only while no change has committed since.
--
-- A template's has_draft and has_approved say which versions it has, as
-- lp_template_version's rows do; they are written with the versions, in
-- the same transaction, so reads need no count of versions.
--
-- Numbered 0017 after the numbers taken by work in progress (a gap is
-- fine: migrations apply in order of number).
ALTER TABLE folder
	ADD COLUMN content_gen BIGINT NOT NULL DEFAULT 0;

ALTER TABLE lp_template
	ADD COLUMN has_draft TINYINT(1) NOT NULL DEFAULT 0,
	ADD COLUMN has_approved TINYINT(1) NOT NULL DEFAULT 0;

UPDATE lp_template t SET
	has_draft = EXISTS (SELECT 1 FROM lp_template_version v
	    WHERE v.template_id = t.id AND v.status = 'draft'),
	has_approved = EXISTS (SELECT 1 FROM lp_template_version v
	    WHERE v.template_id = t.id AND v.status = 'approved');
