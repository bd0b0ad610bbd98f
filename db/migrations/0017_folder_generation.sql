-- A folder's content generation: a number every change of what a browse
-- of the folder shows moves on, in the transaction of the change (today
-- the landing page templates: create, clone, metadata, content, approval,
-- deletion; mautoctl reset moves every folder's).  A worker keeps the
-- pages it answered keyed by folder and generation (src/util/pagecache.c,
-- src/api/api_lp_templates.c), and reads the generation with the folder
-- row every browse reads anyway, so a page is served again only while no
-- change has committed since.  Numbered 0017 after the numbers taken by
-- work in progress (a gap is fine: migrations apply in order of number).
ALTER TABLE folder
	ADD COLUMN content_gen BIGINT NOT NULL DEFAULT 0;
