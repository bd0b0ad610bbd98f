-- A template's dynamic sections use their segmentations as any asset uses
-- another: in asset_usage (src/repo/repo_usage.c), which the segmentation
-- store asks alone before a delete, instead of asking the template store
-- for email_template_dynamic.  email_template_dynamic keeps which section
-- is dynamic with which segmentation; the uses of the templates there are
-- are recorded here, one a template and segmentation.
INSERT IGNORE INTO asset_usage (asset_type, asset_id, user_type, user_id)
	SELECT DISTINCT 'segmentation', segmentation_id, 'emailTemplate',
	    template_id
	FROM email_template_dynamic;
