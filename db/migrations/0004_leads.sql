-- Leads (src/repo/repo_leads.c, repo_lead_fields.c, repo_programs.c):
-- the lead table, whose columns are the fields by their REST API names,
-- the field catalogue that describes them, partitions, programs with
-- their ordered statuses, static lists, forms, memberships, cookies and
-- the activity log.  Custom fields are added as columns of lead by
-- Create Lead Fields (ALTER TABLE, run once by the worker that creates
-- them; lead_schema.version tells every worker to reload the catalogue).
--
-- String fields that are searchable are VARCHAR with an index; the other
-- strings are TEXT (lengths are checked by the service), so the row stays
-- far below InnoDB's 64 KB row-size limit as custom fields are added.

CREATE TABLE lead_partition (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	PRIMARY KEY (id),
	UNIQUE KEY lead_partition_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO lead_partition (id, name, description)
	VALUES (1, 'Default', 'Initial system lead partition');

CREATE TABLE lead (
	`company` TEXT NULL,
	`site` TEXT NULL,
	`billingStreet` MEDIUMTEXT NULL,
	`billingCity` TEXT NULL,
	`billingState` TEXT NULL,
	`billingCountry` TEXT NULL,
	`billingPostalCode` TEXT NULL,
	`website` TEXT NULL,
	`mainPhone` TEXT NULL,
	`annualRevenue` DOUBLE NULL,
	`numberOfEmployees` INT NULL,
	`industry` TEXT NULL,
	`sicCode` TEXT NULL,
	`mktoCompanyNotes` MEDIUMTEXT NULL,
	`externalCompanyId` TEXT NULL,
	`id` INT NOT NULL AUTO_INCREMENT,
	`mktoName` VARCHAR(255) AS (NULLIF(TRIM(CONCAT_WS(' ', firstName, lastName)), '')) VIRTUAL,
	`personType` TEXT NULL,
	`mktoIsPartner` TINYINT(1) NOT NULL DEFAULT 0,
	`isLead` TINYINT(1) NOT NULL DEFAULT 0,
	`mktoIsCustomer` TINYINT(1) NOT NULL DEFAULT 0,
	`isAnonymous` TINYINT(1) NOT NULL DEFAULT 0,
	`salutation` TEXT NULL,
	`firstName` TEXT NULL,
	`middleName` TEXT NULL,
	`lastName` TEXT NULL,
	`email` VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NULL,
	`phone` TEXT NULL,
	`mobilePhone` TEXT NULL,
	`fax` TEXT NULL,
	`title` TEXT NULL,
	`contactCompany` INT NULL,
	`dateOfBirth` DATE NULL,
	`address` MEDIUMTEXT NULL,
	`city` TEXT NULL,
	`state` TEXT NULL,
	`country` TEXT NULL,
	`postalCode` TEXT NULL,
	`personTimeZone` TEXT NULL,
	`originalSourceType` TEXT NULL,
	`originalSourceInfo` TEXT NULL,
	`registrationSourceType` TEXT NULL,
	`registrationSourceInfo` TEXT NULL,
	`originalSearchEngine` TEXT NULL,
	`originalSearchPhrase` TEXT NULL,
	`originalReferrer` TEXT NULL,
	`emailInvalid` TINYINT(1) NOT NULL DEFAULT 0,
	`emailInvalidCause` TEXT NULL,
	`unsubscribed` TINYINT(1) NOT NULL DEFAULT 0,
	`unsubscribedReason` TEXT NULL,
	`doNotCall` TINYINT(1) NOT NULL DEFAULT 0,
	`mktoDoNotCallCause` TEXT NULL,
	`doNotCallReason` TEXT NULL,
	`marketingSuspended` TINYINT(1) NOT NULL DEFAULT 0,
	`marketingSuspendedCause` TEXT NULL,
	`blackListed` TINYINT(1) NOT NULL DEFAULT 0,
	`blackListedCause` TEXT NULL,
	`mktoPersonNotes` MEDIUMTEXT NULL,
	`anonymousIP` TEXT NULL,
	`inferredCompany` TEXT NULL,
	`inferredCountry` TEXT NULL,
	`inferredCity` TEXT NULL,
	`inferredStateRegion` TEXT NULL,
	`inferredPostalCode` TEXT NULL,
	`inferredMetropolitanArea` TEXT NULL,
	`inferredPhoneAreaCode` TEXT NULL,
	`emailSuspended` TINYINT(1) NOT NULL DEFAULT 0,
	`emailSuspendedCause` TEXT NULL,
	`emailSuspendedAt` DATETIME NULL,
	`department` TEXT NULL,
	`createdAt` DATETIME NOT NULL,
	`updatedAt` DATETIME NOT NULL,
	`cookies` VARCHAR(255) NULL,
	`externalSalesPersonId` TEXT NULL,
	`leadPerson` INT AS (id) VIRTUAL,
	`leadRole` TEXT NULL,
	`leadSource` TEXT NULL,
	`leadStatus` TEXT NULL,
	`leadScore` INT NULL,
	`urgency` DOUBLE NULL,
	`priority` INT NULL,
	`relativeScore` INT NULL,
	`relativeUrgency` INT NULL,
	`rating` TEXT NULL,
	`personPrimaryLeadInterest` INT NULL,
	`leadPartitionId` INT NOT NULL DEFAULT 1,
	`leadRevenueCycleModelId` INT NULL,
	`leadRevenueStageId` INT NULL,
	`acquisitionProgramId` INT NULL,
	`mktoAcquisitionDate` DATETIME NULL,
	`ecids` TEXT NULL,
	`facebookId` VARCHAR(255) NULL,
	`linkedInId` VARCHAR(255) NULL,
	`twitterId` VARCHAR(255) NULL,
	`sfdcAccountId` VARCHAR(18) NULL,
	`sfdcContactId` VARCHAR(18) NULL,
	`sfdcLeadId` VARCHAR(18) NULL,
	`sfdcLeadOwnerId` VARCHAR(18) NULL,
	`sfdcOpptyId` VARCHAR(18) NULL,
	PRIMARY KEY (id),
	KEY lead_email (email),
	KEY lead_updated (updatedAt),
	KEY lead_partition (leadPartitionId),
	KEY lead_cookies (`cookies`),
	KEY lead_facebookId (`facebookId`),
	KEY lead_linkedInId (`linkedInId`),
	KEY lead_sfdcAccountId (`sfdcAccountId`),
	KEY lead_sfdcContactId (`sfdcContactId`),
	KEY lead_sfdcLeadId (`sfdcLeadId`),
	KEY lead_sfdcLeadOwnerId (`sfdcLeadOwnerId`),
	KEY lead_sfdcOpptyId (`sfdcOpptyId`),
	KEY lead_twitterId (`twitterId`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The field catalogue: one row per lead field, standard and custom.
-- name is unique without regard to case (MariaDB column names are), and
-- so is display_name.  attr_id is the numeric id Describe Lead reports.
CREATE TABLE lead_field (
	name VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
	attr_id INT NOT NULL AUTO_INCREMENT,
	display_name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
	data_type VARCHAR(16) NOT NULL,
	length INT NULL,
	description VARCHAR(2000) NULL,
	soap_name VARCHAR(64) NULL,
	read_only TINYINT(1) NOT NULL DEFAULT 0,
	searchable TINYINT(1) NOT NULL DEFAULT 0,
	indexed TINYINT(1) NOT NULL DEFAULT 0,
	is_custom TINYINT(1) NOT NULL DEFAULT 0,
	is_api_created TINYINT(1) NOT NULL DEFAULT 0,
	is_hidden TINYINT(1) NOT NULL DEFAULT 0,
	is_html_encoding TINYINT(1) NOT NULL DEFAULT 1,
	is_sensitive TINYINT(1) NOT NULL DEFAULT 0,
	crm_managed TINYINT(1) NOT NULL DEFAULT 0,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (name),
	UNIQUE KEY lead_field_attr (attr_id),
	UNIQUE KEY lead_field_display (display_name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO lead_field (name, attr_id, display_name, data_type, length,
	description, soap_name, read_only, searchable, indexed, is_custom,
	is_api_created, is_hidden, is_html_encoding, is_sensitive, crm_managed,
	created_at, updated_at) VALUES
	('company', 4, 'Company Name', 'string', 255, NULL, 'Company', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('site', 5, 'Site', 'string', 255, NULL, 'Site', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('billingStreet', 6, 'Billing Street', 'text', NULL, NULL, 'BillingStreet', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('billingCity', 7, 'Billing City', 'string', 255, NULL, 'BillingCity', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('billingState', 8, 'Billing State', 'string', 255, NULL, 'BillingState', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('billingCountry', 9, 'Billing Country', 'string', 255, NULL, 'BillingCountry', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('billingPostalCode', 10, 'Billing Postal Code', 'string', 255, NULL, 'BillingPostalCode', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('website', 11, 'Website', 'url', 255, NULL, 'Website', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('mainPhone', 12, 'Main Phone', 'string', 255, NULL, 'MainPhone', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('annualRevenue', 15, 'Annual Revenue', 'currency', NULL, NULL, 'AnnualRevenue', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('numberOfEmployees', 16, 'Num Employees', 'integer', NULL, NULL, 'NumberOfEmployees', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('industry', 17, 'Industry', 'string', 255, NULL, 'Industry', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('sicCode', 18, 'SIC Code', 'string', 40, NULL, 'SicCode', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('mktoCompanyNotes', 20, 'Company Notes', 'text', NULL, NULL, 'MktoCompanyNotes', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('externalCompanyId', 41, 'External Company Id', 'string', 50, NULL, 'ExternalCompanyId', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('id', 44, 'Id', 'integer', NULL, NULL, 'Id', 1, 1, 1, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('mktoName', 45, 'Full Name', 'string', 255, NULL, 'MktoName', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('personType', 46, 'Person Type', 'string', 50, NULL, 'PersonType', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('mktoIsPartner', 48, 'Is Partner', 'boolean', NULL, NULL, 'MktoIsPartner', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('isLead', 49, 'Is Lead', 'boolean', NULL, NULL, 'IsLead', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('mktoIsCustomer', 50, 'Is Customer', 'boolean', NULL, NULL, 'MktoIsCustomer', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('isAnonymous', 51, 'Is Anonymous', 'boolean', NULL, NULL, 'IsAnonymous', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('salutation', 52, 'Salutation', 'string', 255, NULL, 'Salutation', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('firstName', 53, 'First Name', 'string', 255, NULL, 'FirstName', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('middleName', 54, 'Middle Name', 'string', 255, NULL, 'MiddleName', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('lastName', 55, 'Last Name', 'string', 255, NULL, 'LastName', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('email', 56, 'Email Address', 'email', 255, NULL, 'Email', 0, 1, 1, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('phone', 57, 'Phone Number', 'phone', 255, NULL, 'Phone', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('mobilePhone', 58, 'Mobile Phone Number', 'phone', 255, NULL, 'MobilePhone', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('fax', 59, 'Fax Number', 'phone', 255, NULL, 'Fax', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('title', 60, 'Job Title', 'string', 255, NULL, 'Title', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('contactCompany', 61, 'Contact Company', 'reference', NULL, NULL, 'ContactCompany', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('dateOfBirth', 62, 'Date Of Birth', 'date', NULL, NULL, 'DateOfBirth', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('address', 63, 'Address', 'text', NULL, NULL, 'Address', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('city', 64, 'City', 'string', 255, NULL, 'City', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('state', 65, 'State', 'string', 255, NULL, 'State', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('country', 66, 'Country', 'string', 255, NULL, 'Country', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('postalCode', 67, 'Postal Code', 'string', 255, NULL, 'PostalCode', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('personTimeZone', 68, 'Person Time Zone', 'string', 255, NULL, 'PersonTimeZone', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('originalSourceType', 70, 'Original Source Type', 'string', 255, NULL, 'OriginalSourceType', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('originalSourceInfo', 71, 'Original Source Info', 'string', 2000, NULL, 'OriginalSourceInfo', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('registrationSourceType', 72, 'Registration Source Type', 'string', 255, NULL, 'RegistrationSourceType', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('registrationSourceInfo', 73, 'Registration Source Info', 'string', 2000, NULL, 'RegistrationSourceInfo', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('originalSearchEngine', 74, 'Original Search Engine', 'string', 255, NULL, 'OriginalSearchEngine', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('originalSearchPhrase', 75, 'Original Search Phrase', 'string', 255, NULL, 'OriginalSearchPhrase', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('originalReferrer', 76, 'Original Referrer', 'url', 255, NULL, 'OriginalReferrer', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('emailInvalid', 77, 'Email Invalid', 'boolean', NULL, NULL, 'EmailInvalid', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('emailInvalidCause', 78, 'Email Invalid Cause', 'string', 255, NULL, 'EmailInvalidCause', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('unsubscribed', 79, 'Unsubscribed', 'boolean', NULL, NULL, 'Unsubscribed', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('unsubscribedReason', 81, 'Unsubscribed Reason', 'string', 2000, NULL, 'UnsubscribedReason', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('doNotCall', 82, 'Do Not Call', 'boolean', NULL, NULL, 'DoNotCall', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('mktoDoNotCallCause', 83, 'Do Not Call Cause', 'string', 255, NULL, 'MktoDoNotCallCause', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('doNotCallReason', 84, 'Do Not Call Reason', 'string', 2000, NULL, 'DoNotCallReason', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('marketingSuspended', 85, 'Marketing Suspended', 'boolean', NULL, NULL, 'MarketingSuspended', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('marketingSuspendedCause', 86, 'Marketing Suspended Cause', 'string', 255, NULL, 'MarketingSuspendedCause', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('blackListed', 87, 'Black Listed', 'boolean', NULL, NULL, 'BlackListed', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('blackListedCause', 88, 'Black Listed Cause', 'string', 255, NULL, 'BlackListedCause', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('mktoPersonNotes', 89, 'Person Notes', 'text', NULL, NULL, 'MktoPersonNotes', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('anonymousIP', 103, 'Anonymous IP', 'string', 255, NULL, 'AnonymousIP', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('inferredCompany', 104, 'Inferred Company', 'string', 255, NULL, 'InferredCompany', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('inferredCountry', 105, 'Inferred Country', 'string', 255, NULL, 'InferredCountry', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('inferredCity', 106, 'Inferred City', 'string', 255, NULL, 'InferredCity', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('inferredStateRegion', 107, 'Inferred State Region', 'string', 255, NULL, 'InferredStateRegion', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('inferredPostalCode', 108, 'Inferred Postal Code', 'string', 255, NULL, 'InferredPostalCode', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('inferredMetropolitanArea', 109, 'Inferred Metropolitan Area', 'string', 255, NULL, 'InferredMetropolitanArea', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('inferredPhoneAreaCode', 110, 'Inferred Phone Area Code', 'string', 255, NULL, 'InferredPhoneAreaCode', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('emailSuspended', 123, 'Email Suspended', 'boolean', NULL, NULL, 'EmailSuspended', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('emailSuspendedCause', 124, 'Email Suspended Cause', 'string', 255, NULL, 'EmailSuspendedCause', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('emailSuspendedAt', 125, 'Email Suspended At', 'datetime', NULL, NULL, 'EmailSuspendedAt', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('department', 126, 'Department', 'string', 255, NULL, 'Department', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('createdAt', 130, 'Created At', 'datetime', NULL, NULL, 'CreatedAt', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('updatedAt', 131, 'Updated At', 'datetime', NULL, NULL, 'UpdatedAt', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('cookies', 136, 'Cookies', 'string', 255, NULL, 'Cookies', 0, 1, 1, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('externalSalesPersonId', 137, 'External Sales Person Id', 'string', 50, NULL, 'ExternalSalesPersonId', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('leadPerson', 141, 'Lead Person', 'reference', NULL, NULL, 'LeadPerson', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('leadRole', 143, 'Lead Role', 'string', 50, NULL, 'LeadRole', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('leadSource', 144, 'Lead Source', 'string', 255, NULL, 'LeadSource', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('leadStatus', 145, 'Lead Status', 'string', 255, NULL, 'LeadStatus', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('leadScore', 146, 'Lead Score', 'integer', NULL, NULL, 'LeadScore', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('urgency', 147, 'Urgency', 'float', NULL, NULL, 'Urgency', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('priority', 148, 'Priority', 'integer', NULL, NULL, 'Priority', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('relativeScore', 149, 'Relative Score', 'integer', NULL, NULL, 'RelativeScore', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('relativeUrgency', 150, 'Relative Urgency', 'integer', NULL, NULL, 'RelativeUrgency', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('rating', 160, 'Rating', 'string', 255, NULL, 'Rating', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('personPrimaryLeadInterest', 181, 'Person Primary Lead Interest', 'reference', NULL, NULL, 'PersonPrimaryLeadInterest', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('leadPartitionId', 479, 'Lead Partition Id', 'reference', NULL, NULL, 'LeadPartitionId', 0, 1, 1, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('leadRevenueCycleModelId', 485, 'Lead Revenue Cycle Model Id', 'reference', NULL, NULL, 'LeadRevenueCycleModelId', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('leadRevenueStageId', 487, 'Lead Revenue Stage Id', 'reference', NULL, NULL, 'LeadRevenueStageId', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('acquisitionProgramId', 625, 'Acquisition Program Id', 'reference', NULL, NULL, 'AcquisitionProgramId', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('mktoAcquisitionDate', 627, 'Acquisition Date', 'datetime', NULL, NULL, 'MktoAcquisitionDate', 0, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('ecids', 830, 'ECIDs', 'string', 255, NULL, 'Ecids', 1, 0, 0, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('facebookId', 2001, 'Facebook Id', 'string', 255, NULL, 'FacebookId', 0, 1, 1, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('linkedInId', 2002, 'LinkedIn Id', 'string', 255, NULL, 'LinkedInId', 0, 1, 1, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('twitterId', 2003, 'Twitter Id', 'string', 255, NULL, 'TwitterId', 0, 1, 1, 0, 0, 0, 1, 0, 0, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('sfdcAccountId', 2004, 'SFDC Account Id', 'string', 18, NULL, 'SfdcAccountId', 0, 1, 1, 0, 0, 0, 1, 0, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('sfdcContactId', 2005, 'SFDC Contact Id', 'string', 18, NULL, 'SfdcContactId', 0, 1, 1, 0, 0, 0, 1, 0, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('sfdcLeadId', 2006, 'SFDC Lead Id', 'string', 18, NULL, 'SfdcLeadId', 0, 1, 1, 0, 0, 0, 1, 0, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('sfdcLeadOwnerId', 2007, 'SFDC Lead Owner Id', 'string', 18, NULL, 'SfdcLeadOwnerId', 0, 1, 1, 0, 0, 0, 1, 0, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP()),
	('sfdcOpptyId', 2008, 'SFDC Opportunity Id', 'string', 18, NULL, 'SfdcOpptyId', 0, 1, 1, 0, 0, 0, 1, 0, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP());

-- The catalogue version: bumped (in the transaction that changes
-- lead_field) by every field creation or update, so workers reload.
CREATE TABLE lead_schema (
	id TINYINT UNSIGNED NOT NULL,
	version BIGINT NOT NULL,
	PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO lead_schema (id, version) VALUES (1, 1);

-- Transient claims on a lookup value, held only inside a sync
-- transaction (inserted before the lookup, deleted before commit): two
-- concurrent creates of the same new key serialise on the row lock on
-- one node and conflict at certification (1213, retried) on Galera, so
-- they never make two leads.  k is a hash of the field and the value.
CREATE TABLE lead_claim (
	k BIGINT UNSIGNED NOT NULL,
	PRIMARY KEY (k)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Tracking cookies (_mkto_trk values) associated with a lead.
CREATE TABLE lead_cookie (
	cookie VARCHAR(255) NOT NULL,
	lead_id INT NOT NULL,
	created_at DATETIME NOT NULL,
	PRIMARY KEY (cookie),
	KEY lead_cookie_lead (lead_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Programs and their ordered statuses (channel progression steps).
CREATE TABLE program (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	type VARCHAR(32) NOT NULL,
	channel VARCHAR(255) NOT NULL,
	workspace VARCHAR(255) NOT NULL DEFAULT 'Default',
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY program_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- step orders the statuses; success marks the success step(s).
CREATE TABLE program_status (
	program_id INT NOT NULL,
	step INT NOT NULL,
	name VARCHAR(255) NOT NULL,
	success TINYINT(1) NOT NULL DEFAULT 0,
	PRIMARY KEY (program_id, step),
	UNIQUE KEY program_status_name (program_id, name),
	CONSTRAINT program_status_program FOREIGN KEY (program_id)
		REFERENCES program (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE program_member (
	program_id INT NOT NULL,
	lead_id INT NOT NULL,
	status_step INT NOT NULL,
	acquired_by TINYINT(1) NOT NULL DEFAULT 0,
	reached_success TINYINT(1) NOT NULL DEFAULT 0,
	is_exhausted TINYINT(1) NOT NULL DEFAULT 0,
	stream VARCHAR(255) NULL,
	nurture_cadence VARCHAR(16) NULL,
	membership_date DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (program_id, lead_id),
	KEY program_member_lead (lead_id),
	CONSTRAINT program_member_program FOREIGN KEY (program_id)
		REFERENCES program (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE static_list (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	description VARCHAR(2000) NULL,
	program_id INT NULL,
	workspace VARCHAR(255) NOT NULL DEFAULT 'Default',
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY static_list_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE list_member (
	list_id INT NOT NULL,
	lead_id INT NOT NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (list_id, lead_id),
	KEY list_member_lead (lead_id),
	CONSTRAINT list_member_list FOREIGN KEY (list_id)
		REFERENCES static_list (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Forms: a name, an optional program, and the lead fields it carries.
CREATE TABLE form (
	id INT NOT NULL AUTO_INCREMENT,
	name VARCHAR(255) NOT NULL,
	program_id INT NULL,
	workspace VARCHAR(255) NOT NULL DEFAULT 'Default',
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (id),
	UNIQUE KEY form_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE form_field (
	form_id INT NOT NULL,
	field_name VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
	PRIMARY KEY (form_id, field_name),
	CONSTRAINT form_field_form FOREIGN KEY (form_id)
		REFERENCES form (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Smart campaign membership of leads (campaign_id refers to the smart
-- campaigns of the asset API).
CREATE TABLE campaign_member (
	campaign_id INT NOT NULL,
	lead_id INT NOT NULL,
	created_at DATETIME NOT NULL,
	updated_at DATETIME NOT NULL,
	PRIMARY KEY (campaign_id, lead_id),
	KEY campaign_member_lead (lead_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Activity types the service records (the service's standard ids).
CREATE TABLE activity_type (
	id INT NOT NULL,
	name VARCHAR(255) NOT NULL,
	primary_attribute VARCHAR(64) NULL,
	PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO activity_type (id, name, primary_attribute) VALUES
	(2, 'Fill Out Form', 'Webform ID'),
	(12, 'New Lead', NULL),
	(13, 'Change Data Value', 'Attribute Name'),
	(24, 'Add to List', 'List ID'),
	(32, 'Merge Leads', NULL),
	(100, 'Change Lead Partition', NULL),
	(104, 'Change Status in Progression', 'Program ID'),
	(145, 'Push Lead to Marketo', 'Program ID');

-- The activity log.  attributes is a JSON object of the activity's
-- attributes; primary_value_id/primary_value the primary attribute.
CREATE TABLE activity (
	id BIGINT NOT NULL AUTO_INCREMENT,
	lead_id INT NOT NULL,
	activity_type_id INT NOT NULL,
	activity_date DATETIME(3) NOT NULL,
	primary_value_id INT NULL,
	primary_value VARCHAR(255) NULL,
	campaign_id INT NULL,
	attributes LONGTEXT NOT NULL,
	PRIMARY KEY (id),
	KEY activity_lead (lead_id, id),
	KEY activity_type_date (activity_type_id, activity_date)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
