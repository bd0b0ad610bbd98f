-- The read side of the activity log (src/repo/repo_activity.c,
-- docs/behaviour.md §17): Get Activity Types, Get Lead Activities, Get
-- Lead Changes and Get Deleted Leads.
--
-- activity_type gains what Get Activity Types shows: the description,
-- the data type of the primary attribute (NULL: the type shows none, as
-- New Lead), and the retention class the pruner keeps it by
-- (src/activity/pruner.c), the classes of the hosted service's retention
-- policy: 'new-lead' (New Lead), 'deleted' (Delete Lead), 'high-volume'
-- (Visit Webpage, Click Link, Send Email, Email Delivered, Change Data
-- Value, Change Score, Add to List, Request Campaign) and 'activity'
-- (the rest).
-- activity_type_attr holds each type's secondary attributes in the
-- order the reply lists them, with their data types.  The catalogue is
-- the standard one of the hosted service: every type its documentation
-- and captured replies describe with attributes, whether or not mauto
-- records it yet.
--
-- activity_date gets its own index: a date token (Get Paging Token) is
-- resolved to the first activity at or after its date, and the pruning
-- runner finds the activities older than a class's retention.
-- Both roles may read activities: 'Read-Only Activity' and 'Read-Write
-- Activity' are the permissions the service names for these operations.

ALTER TABLE activity_type
	ADD COLUMN description VARCHAR(255) NULL,
	ADD COLUMN primary_type VARCHAR(16) NULL,
	ADD COLUMN retention_class VARCHAR(16) NOT NULL DEFAULT 'activity';

ALTER TABLE activity ADD KEY activity_date (activity_date, id);

CREATE TABLE activity_type_attr (
	type_id INT NOT NULL,
	position INT NOT NULL,
	name VARCHAR(255) NOT NULL,
	data_type VARCHAR(16) NOT NULL,
	PRIMARY KEY (type_id, position),
	CONSTRAINT activity_type_attr_type FOREIGN KEY (type_id)
		REFERENCES activity_type (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO activity_type (id, name, primary_attribute, description,
    primary_type, retention_class) VALUES
	(1, 'Visit Webpage', 'Webpage ID', 'User visits a web page',
	    'integer', 'high-volume'),
	(2, 'Fill Out Form', 'Webform ID',
	    'User fills out and submits form on web page', 'integer',
	    'activity'),
	(3, 'Click Link', 'Link ID', 'User clicks link on a page',
	    'integer', 'high-volume'),
	(6, 'Send Email', 'Mailing ID', 'Send Marketo Email to a person',
	    'integer', 'high-volume'),
	(7, 'Email Delivered', 'Mailing ID',
	    'Marketo Email is delivered to a lead/contact', 'integer',
	    'high-volume'),
	(8, 'Email Bounced', 'Mailing ID',
	    'Marketo Email is bounced for a lead', 'integer', 'activity'),
	(9, 'Unsubscribe Email', 'Mailing ID',
	    'Person unsubscribed from Marketo Emails', 'integer', 'activity'),
	(10, 'Open Email', 'Mailing ID', 'User opens Marketo Email',
	    'integer', 'activity'),
	(11, 'Click Email', 'Mailing ID',
	    'User clicks on a link in a Marketo Email', 'integer',
	    'activity'),
	(12, 'New Lead', NULL,
	    'New person/record is added to the lead database', NULL,
	    'new-lead'),
	(13, 'Change Data Value', 'Attribute Name',
	    'Changed attribute value for a person/record', 'integer',
	    'high-volume'),
	(22, 'Change Score', 'Attribute Name', 'Change a score of a person',
	    'integer', 'high-volume'),
	(24, 'Add to List', 'List ID', 'Add a person to a static list',
	    'integer', 'high-volume'),
	(25, 'Remove from List', 'List ID',
	    'Remove a person from a static list', 'integer', 'activity'),
	(32, 'Merge Leads', 'Lead ID', 'Merge two or more people',
	    'integer', 'activity'),
	(37, 'Delete Lead', 'Lead ID', 'Delete a person', 'integer',
	    'deleted'),
	(46, 'Interesting Moment', NULL, 'Interesting moment of a person',
	    NULL, 'activity'),
	(47, 'Request Campaign', 'Campaign ID',
	    'A campaign is requested for a person', 'integer', 'high-volume'),
	(100, 'Change Lead Partition', NULL,
	    'Move a person to another lead partition', NULL, 'activity'),
	(104, 'Change Status in Progression', 'Program ID',
	    'Change the program status of a person', 'integer', 'activity'),
	(145, 'Push Lead to Marketo', 'Program ID',
	    'Push a person to the lead database', 'integer', 'activity'),
	(155, 'Execute Campaign', 'Campaign ID',
	    'A campaign is executed for a person', 'integer', 'activity')
	ON DUPLICATE KEY UPDATE name = VALUES(name),
	    primary_attribute = VALUES(primary_attribute),
	    description = VALUES(description),
	    primary_type = VALUES(primary_type),
	    retention_class = VALUES(retention_class);

INSERT INTO activity_type_attr (type_id, position, name, data_type) VALUES
	(1, 1, 'Client IP Address', 'string'),
	(1, 2, 'Query Parameters', 'string'),
	(1, 3, 'Referrer URL', 'string'),
	(1, 4, 'Search Engine', 'string'),
	(1, 5, 'Search Query', 'string'),
	(1, 6, 'User Agent', 'string'),
	(1, 7, 'Webpage URL', 'string'),
	(2, 1, 'Client IP Address', 'string'),
	(2, 2, 'Form Fields', 'text'),
	(2, 3, 'Query Parameters', 'string'),
	(2, 4, 'Referrer URL', 'string'),
	(2, 5, 'User Agent', 'string'),
	(2, 6, 'Webpage ID', 'integer'),
	(3, 1, 'Client IP Address', 'string'),
	(3, 2, 'Query Parameters', 'string'),
	(3, 3, 'Referrer URL', 'string'),
	(3, 4, 'User Agent', 'string'),
	(3, 5, 'Webpage ID', 'integer'),
	(6, 1, 'Campaign Run ID', 'integer'),
	(6, 2, 'Choice Number', 'integer'),
	(6, 3, 'Has Predictive', 'boolean'),
	(6, 4, 'Step ID', 'integer'),
	(6, 5, 'Test Variant', 'integer'),
	(7, 1, 'Campaign Run ID', 'integer'),
	(7, 2, 'Choice Number', 'integer'),
	(7, 3, 'Has Predictive', 'boolean'),
	(7, 4, 'Step ID', 'integer'),
	(7, 5, 'Test Variant', 'integer'),
	(8, 1, 'Campaign Run ID', 'integer'),
	(8, 2, 'Category', 'string'),
	(8, 3, 'Choice Number', 'integer'),
	(8, 4, 'Details', 'string'),
	(8, 5, 'Email', 'string'),
	(8, 6, 'Has Predictive', 'boolean'),
	(8, 7, 'Step ID', 'integer'),
	(8, 8, 'Subcategory', 'string'),
	(8, 9, 'Test Variant', 'integer'),
	(9, 1, 'Campaign Run ID', 'integer'),
	(9, 2, 'Client IP Address', 'string'),
	(9, 3, 'Form Fields', 'text'),
	(9, 4, 'Has Predictive', 'boolean'),
	(9, 5, 'Query Parameters', 'string'),
	(9, 6, 'Referrer URL', 'string'),
	(9, 7, 'Test Variant', 'integer'),
	(9, 8, 'User Agent', 'string'),
	(9, 9, 'Webform ID', 'integer'),
	(9, 10, 'Webpage ID', 'integer'),
	(10, 1, 'Campaign Run ID', 'integer'),
	(10, 2, 'Choice Number', 'integer'),
	(10, 3, 'Device', 'string'),
	(10, 4, 'Has Predictive', 'boolean'),
	(10, 5, 'Is Mobile Device', 'boolean'),
	(10, 6, 'Platform', 'string'),
	(10, 7, 'Step ID', 'integer'),
	(10, 8, 'Test Variant', 'integer'),
	(10, 9, 'User Agent', 'string'),
	(11, 1, 'Campaign Run ID', 'integer'),
	(11, 2, 'Choice Number', 'integer'),
	(11, 3, 'Device', 'string'),
	(11, 4, 'Is Mobile Device', 'boolean'),
	(11, 5, 'Is Predictive', 'boolean'),
	(11, 6, 'Link', 'string'),
	(11, 7, 'Link ID', 'string'),
	(11, 8, 'Platform', 'string'),
	(11, 9, 'Step ID', 'integer'),
	(11, 10, 'Test Variant', 'integer'),
	(11, 11, 'User Agent', 'string'),
	(12, 1, 'Created Date', 'date'),
	(12, 2, 'Form Name', 'string'),
	(12, 3, 'Lead Source', 'string'),
	(12, 4, 'List Name', 'string'),
	(12, 5, 'SFDC Type', 'string'),
	(12, 6, 'Source Type', 'string'),
	(12, 7, 'API Method Name', 'string'),
	(12, 8, 'Modifying User', 'string'),
	(12, 9, 'Request Id', 'string'),
	(13, 1, 'New Value', 'text'),
	(13, 2, 'Old Value', 'text'),
	(13, 3, 'Reason', 'string'),
	(13, 4, 'Source', 'string'),
	(22, 1, 'Change Value', 'string'),
	(22, 2, 'New Value', 'integer'),
	(22, 3, 'Old Value', 'integer'),
	(22, 4, 'Reason', 'string'),
	(24, 1, 'Source', 'string'),
	(25, 1, 'Source', 'string'),
	(32, 1, 'Merge IDs', 'array'),
	(32, 2, 'Merge Source', 'string'),
	(37, 1, 'Campaign', 'string'),
	(46, 1, 'Date', 'datetime'),
	(46, 2, 'Source', 'string'),
	(46, 3, 'Type', 'string'),
	(47, 1, 'Source', 'string'),
	(100, 1, 'New Partition ID', 'integer'),
	(100, 2, 'Old Partition ID', 'integer'),
	(100, 3, 'Reason', 'string'),
	(104, 1, 'Acquired By', 'boolean'),
	(104, 2, 'New Status', 'string'),
	(104, 3, 'New Status ID', 'integer'),
	(104, 4, 'Old Status', 'string'),
	(104, 5, 'Old Status ID', 'integer'),
	(104, 6, 'Program Member ID', 'integer'),
	(104, 7, 'Success', 'boolean'),
	(145, 1, 'Program Name', 'string'),
	(145, 2, 'Program Status', 'string'),
	(145, 3, 'Reason', 'string'),
	(145, 4, 'Source', 'string'),
	(155, 1, 'Qualified', 'boolean'),
	(155, 2, 'Used Parent Campaign Token Context', 'boolean');

INSERT INTO auth_role_perm (role_id, perm)
	SELECT r.id, p.perm FROM auth_role r JOIN (
		SELECT 'Read-Only Activity' AS perm
		UNION ALL SELECT 'Read-Write Activity'
	) p WHERE r.name = 'admin';

INSERT INTO auth_role_perm (role_id, perm)
	SELECT r.id, 'Read-Only Activity' FROM auth_role r
	WHERE r.name = 'readonly';
