CREATE TABLE `activity` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `lead_id` int(11) NOT NULL,
  `activity_type_id` int(11) NOT NULL,
  `activity_date` datetime(3) NOT NULL,
  `primary_value_id` int(11) DEFAULT NULL,
  `primary_value` varchar(255) DEFAULT NULL,
  `campaign_id` int(11) DEFAULT NULL,
  `attributes` longtext NOT NULL,
  PRIMARY KEY (`id`),
  KEY `activity_lead` (`lead_id`,`id`),
  KEY `activity_type_date` (`activity_type_id`,`activity_date`),
  KEY `activity_date` (`activity_date`,`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `activity_offer` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `lead_id` int(11) NOT NULL,
  `activity_type_id` int(11) NOT NULL,
  `primary_value_id` int(11) DEFAULT NULL,
  `primary_value` varchar(255) DEFAULT NULL,
  `attributes` longtext NOT NULL,
  `campaign_id` int(11) DEFAULT NULL,
  `depth` int(11) NOT NULL DEFAULT 0,
  `created_at` datetime(3) NOT NULL,
  `claim` varchar(32) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `lease_until` datetime(3) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `activity_offer_claim` (`claim`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `activity_type` (
  `id` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  `primary_attribute` varchar(64) DEFAULT NULL,
  `description` varchar(255) DEFAULT NULL,
  `primary_type` varchar(16) DEFAULT NULL,
  `retention_class` varchar(16) NOT NULL DEFAULT 'activity',
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `activity_type_attr` (
  `type_id` int(11) NOT NULL,
  `position` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  `data_type` varchar(16) NOT NULL,
  PRIMARY KEY (`type_id`,`position`),
  CONSTRAINT `activity_type_attr_type` FOREIGN KEY (`type_id`) REFERENCES `activity_type` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `api_stats_host` (
  `day_key` int(11) NOT NULL,
  `kind` tinyint(4) NOT NULL,
  `item` bigint(20) NOT NULL,
  `host` varchar(64) NOT NULL,
  `n` bigint(20) NOT NULL,
  PRIMARY KEY (`day_key`,`kind`,`item`,`host`),
  KEY `api_stats_host_day` (`host`,`day_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `asset_usage` (
  `asset_type` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `asset_id` int(11) NOT NULL,
  `user_type` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `user_id` int(11) NOT NULL,
  PRIMARY KEY (`asset_type`,`asset_id`,`user_type`,`user_id`),
  KEY `asset_usage_user` (`user_type`,`user_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_client` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `client_id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `name` varchar(255) NOT NULL,
  `role_id` bigint(20) NOT NULL,
  `scope` varchar(255) NOT NULL,
  `secret_hash` varchar(127) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created_at` bigint(20) NOT NULL,
  `revoked_at` bigint(20) DEFAULT NULL,
  `token_issues` bigint(20) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `auth_client_client_id` (`client_id`),
  KEY `auth_client_role` (`role_id`),
  CONSTRAINT `auth_client_role_fk` FOREIGN KEY (`role_id`) REFERENCES `auth_role` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_epoch` (
  `id` tinyint(3) unsigned NOT NULL,
  `value` bigint(20) unsigned NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_fault` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `client_ref` bigint(20) NOT NULL,
  `code` smallint(6) NOT NULL,
  PRIMARY KEY (`id`),
  KEY `auth_fault_client` (`client_ref`,`id`),
  CONSTRAINT `auth_fault_client_fk` FOREIGN KEY (`client_ref`) REFERENCES `auth_client` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_role` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `created_at` bigint(20) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `auth_role_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_role_perm` (
  `role_id` bigint(20) NOT NULL,
  `perm` varchar(64) NOT NULL,
  PRIMARY KEY (`role_id`,`perm`),
  CONSTRAINT `auth_role_perm_role` FOREIGN KEY (`role_id`) REFERENCES `auth_role` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `auth_token` (
  `token_hash` binary(32) NOT NULL,
  `client_ref` bigint(20) NOT NULL,
  `token` varchar(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `issued_at` bigint(20) NOT NULL,
  `expires_at` bigint(20) NOT NULL,
  PRIMARY KEY (`token_hash`),
  KEY `auth_token_client` (`client_ref`,`expires_at`),
  KEY `auth_token_expires` (`expires_at`),
  CONSTRAINT `auth_token_client_fk` FOREIGN KEY (`client_ref`) REFERENCES `auth_client` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `campaign_member` (
  `campaign_id` int(11) NOT NULL,
  `lead_id` int(11) NOT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`campaign_id`,`lead_id`),
  KEY `campaign_member_lead` (`lead_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `campaign_qualification` (
  `campaign_id` int(11) NOT NULL,
  `lead_id` int(11) NOT NULL,
  `last_at` datetime(3) NOT NULL,
  `times` int(11) NOT NULL DEFAULT 1,
  PRIMARY KEY (`campaign_id`,`lead_id`),
  KEY `campaign_qualification_lead` (`lead_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `campaign_run` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `campaign_id` int(11) NOT NULL,
  `kind` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `status` varchar(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `run_at` datetime(3) NOT NULL,
  `tokens` longtext DEFAULT NULL,
  `depth` int(11) NOT NULL DEFAULT 0,
  `claim` varchar(32) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `lease_until` datetime(3) DEFAULT NULL,
  `expanded_to` bigint(20) NOT NULL DEFAULT 0,
  `nleads` int(11) NOT NULL DEFAULT 0,
  `cloned_from` int(11) DEFAULT NULL,
  `clone_day` int(11) DEFAULT NULL,
  `created_at` datetime(3) NOT NULL,
  PRIMARY KEY (`id`),
  KEY `campaign_run_due` (`status`,`run_at`),
  KEY `campaign_run_campaign` (`campaign_id`,`id`),
  KEY `campaign_run_clone_day` (`clone_day`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `campaign_run_lead` (
  `run_id` bigint(20) NOT NULL,
  `lead_id` int(11) NOT NULL,
  `campaign_id` int(11) NOT NULL,
  `step_pos` int(11) NOT NULL DEFAULT 0,
  `state` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `due_at` datetime(3) NOT NULL,
  `claim` varchar(32) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `lease_until` datetime(3) DEFAULT NULL,
  `note` varchar(255) DEFAULT NULL,
  `updated_at` datetime(3) NOT NULL,
  PRIMARY KEY (`run_id`,`lead_id`),
  KEY `campaign_run_lead_due` (`state`,`due_at`),
  KEY `campaign_run_lead_claim` (`claim`),
  KEY `campaign_run_lead_lead` (`lead_id`,`campaign_id`),
  KEY `campaign_run_lead_run_state` (`run_id`,`state`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `channel` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `program_type` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `channel_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `channel_status` (
  `channel_id` int(11) NOT NULL,
  `step` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `hidden` tinyint(1) NOT NULL DEFAULT 0,
  `success` tinyint(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`channel_id`,`step`),
  UNIQUE KEY `channel_status_name` (`channel_id`,`name`),
  CONSTRAINT `channel_status_channel` FOREIGN KEY (`channel_id`) REFERENCES `channel` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `co_field` (
  `type_id` int(11) NOT NULL,
  `is_draft` tinyint(1) NOT NULL,
  `name` varchar(50) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
  `pos` int(11) NOT NULL,
  `display_name` varchar(255) NOT NULL,
  `data_type` varchar(16) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
  `length` int(11) DEFAULT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `is_dedupe` tinyint(1) NOT NULL DEFAULT 0,
  `related_object` varchar(50) CHARACTER SET ascii COLLATE ascii_general_ci DEFAULT NULL,
  `related_field` varchar(64) CHARACTER SET ascii COLLATE ascii_general_ci DEFAULT NULL,
  `key_type` varchar(16) CHARACTER SET ascii COLLATE ascii_general_ci DEFAULT NULL,
  PRIMARY KEY (`type_id`,`is_draft`,`name`),
  CONSTRAINT `co_field_version` FOREIGN KEY (`type_id`, `is_draft`) REFERENCES `co_type_version` (`type_id`, `is_draft`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `co_field_ref` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `type_id` int(11) NOT NULL,
  `name` varchar(50) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
  `is_primary` tinyint(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `co_field_ref_name` (`type_id`,`name`),
  CONSTRAINT `co_field_ref_type` FOREIGN KEY (`type_id`) REFERENCES `co_type` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `co_schema` (
  `id` tinyint(3) unsigned NOT NULL,
  `version` bigint(20) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `co_type` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `api_name` varchar(50) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
  `state` varchar(20) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
  `has_approved` tinyint(1) NOT NULL DEFAULT 0,
  `has_draft` tinyint(1) NOT NULL DEFAULT 1,
  `table_ready` tinyint(1) NOT NULL DEFAULT 0,
  `draft_rev` bigint(20) NOT NULL DEFAULT 1,
  `approving_owner` char(36) CHARACTER SET ascii COLLATE ascii_general_ci DEFAULT NULL,
  `approving_until` datetime DEFAULT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  `approved_at` datetime DEFAULT NULL,
  `added_after_approval` int(11) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `co_type_api_name` (`api_name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `co_type_version` (
  `type_id` int(11) NOT NULL,
  `is_draft` tinyint(1) NOT NULL,
  `display_name` varchar(255) NOT NULL,
  `plural_name` varchar(255) DEFAULT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `show_in_lead_detail` tinyint(1) NOT NULL DEFAULT 0,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`type_id`,`is_draft`),
  CONSTRAINT `co_type_version_type` FOREIGN KEY (`type_id`) REFERENCES `co_type` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `email` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `place_type` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `place_id` int(11) NOT NULL,
  `workspace_id` int(11) NOT NULL DEFAULT 1,
  `template_id` int(11) DEFAULT NULL,
  `operational` tinyint(1) NOT NULL DEFAULT 0,
  `text_only` tinyint(1) NOT NULL DEFAULT 0,
  `publish_to_msi` tinyint(1) NOT NULL DEFAULT 0,
  `web_view` tinyint(1) NOT NULL DEFAULT 0,
  `auto_copy_to_text` tinyint(1) NOT NULL DEFAULT 0,
  `pre_header` varchar(4096) DEFAULT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  `folder_id` int(11) GENERATED ALWAYS AS (if(`place_type` = 'Folder',`place_id`,NULL)) STORED,
  PRIMARY KEY (`id`),
  UNIQUE KEY `email_place_name` (`place_type`,`place_id`,`name`),
  KEY `email_name` (`name`),
  KEY `email_updated` (`updated_at`,`id`),
  KEY `email_template` (`template_id`),
  KEY `email_ws` (`workspace_id`),
  KEY `email_folder` (`folder_id`),
  CONSTRAINT `email_folder_fk` FOREIGN KEY (`folder_id`) REFERENCES `folder` (`id`),
  CONSTRAINT `email_template_fk` FOREIGN KEY (`template_id`) REFERENCES `email_template` (`id`),
  CONSTRAINT `email_ws` FOREIGN KEY (`workspace_id`) REFERENCES `workspace` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `email_template` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `folder_id` int(11) NOT NULL,
  `workspace_id` int(11) NOT NULL DEFAULT 1,
  `content` mediumtext NOT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `email_template_name` (`name`),
  KEY `email_template_folder` (`folder_id`,`id`),
  KEY `email_template_ws` (`workspace_id`),
  CONSTRAINT `email_template_folder_fk` FOREIGN KEY (`folder_id`) REFERENCES `folder` (`id`),
  CONSTRAINT `email_template_ws` FOREIGN KEY (`workspace_id`) REFERENCES `workspace` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `email_template_dynamic` (
  `template_id` int(11) NOT NULL,
  `html_id` varchar(255) NOT NULL,
  `segmentation_id` int(11) NOT NULL,
  PRIMARY KEY (`template_id`,`html_id`),
  KEY `email_template_dynamic_seg` (`segmentation_id`),
  CONSTRAINT `email_template_dynamic_segfk` FOREIGN KEY (`segmentation_id`) REFERENCES `segmentation` (`id`),
  CONSTRAINT `email_template_dynamic_tpl` FOREIGN KEY (`template_id`) REFERENCES `email_template` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `email_version` (
  `email_id` int(11) NOT NULL,
  `status` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `subject_type` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'Text',
  `subject` varchar(4096) DEFAULT NULL,
  `from_name_type` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'Text',
  `from_name` varchar(1024) DEFAULT NULL,
  `from_email_type` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'Text',
  `from_email` varchar(1024) DEFAULT NULL,
  `reply_email_type` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'Text',
  `reply_email` varchar(1024) DEFAULT NULL,
  `open_tracking_disabled` tinyint(1) NOT NULL DEFAULT 0,
  `content` mediumtext NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`email_id`,`status`),
  CONSTRAINT `email_version_fk` FOREIGN KEY (`email_id`) REFERENCES `email` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `engine_clock` (
  `id` tinyint(4) NOT NULL,
  `offset_ms` bigint(20) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `export_gate` (
  `id` tinyint(3) unsigned NOT NULL,
  `version` bigint(20) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `export_job` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `export_id` char(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `client_ref` bigint(20) NOT NULL,
  `object_name` varchar(50) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
  `format` char(3) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
  `status` varchar(12) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
  `fields` longtext NOT NULL,
  `headers` longtext NOT NULL,
  `filter_type` varchar(16) CHARACTER SET ascii COLLATE ascii_general_ci NOT NULL,
  `filter_start` datetime DEFAULT NULL,
  `filter_end` datetime DEFAULT NULL,
  `list_id` int(11) DEFAULT NULL,
  `link_field` varchar(50) CHARACTER SET ascii COLLATE ascii_general_ci DEFAULT NULL,
  `created_at` datetime(6) NOT NULL,
  `queued_at` datetime(6) DEFAULT NULL,
  `started_at` datetime(6) DEFAULT NULL,
  `finished_at` datetime(6) DEFAULT NULL,
  `number_of_records` bigint(20) DEFAULT NULL,
  `file_size` bigint(20) DEFAULT NULL,
  `file_checksum` varchar(71) CHARACTER SET ascii COLLATE ascii_general_ci DEFAULT NULL,
  `error_msg` varchar(255) DEFAULT NULL,
  `day_key` int(11) DEFAULT NULL,
  `attempts` int(11) NOT NULL DEFAULT 0,
  `file_expired` tinyint(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `export_job_export_id` (`export_id`),
  KEY `export_job_client` (`client_ref`,`object_name`,`created_at`),
  KEY `export_job_status` (`status`,`queued_at`),
  KEY `export_job_day` (`day_key`),
  KEY `export_job_created` (`created_at`),
  CONSTRAINT `export_job_client_fk` FOREIGN KEY (`client_ref`) REFERENCES `auth_client` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `export_slot` (
  `slot` tinyint(3) unsigned NOT NULL,
  `owner` varchar(128) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `job_id` bigint(20) DEFAULT NULL,
  `lease_until` datetime(6) DEFAULT NULL,
  PRIMARY KEY (`slot`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `folder` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `kind` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `parent_id` int(11) DEFAULT NULL,
  `workspace_id` int(11) NOT NULL DEFAULT 1,
  `is_system` tinyint(1) NOT NULL DEFAULT 0,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  `content_gen` bigint(20) NOT NULL DEFAULT 0,
  `is_archive` tinyint(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `folder_sibling_name` (`parent_id`,`name`),
  KEY `folder_workspace` (`workspace_id`),
  CONSTRAINT `folder_parent` FOREIGN KEY (`parent_id`) REFERENCES `folder` (`id`),
  CONSTRAINT `folder_ws` FOREIGN KEY (`workspace_id`) REFERENCES `workspace` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `folder_token` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `folder_id` int(11) DEFAULT NULL,
  `program_id` int(11) DEFAULT NULL,
  `name` varchar(50) NOT NULL,
  `type` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `value` text NOT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `folder_token_folder` (`folder_id`,`name`),
  UNIQUE KEY `folder_token_program` (`program_id`,`name`),
  CONSTRAINT `folder_token_folder_fk` FOREIGN KEY (`folder_id`) REFERENCES `folder` (`id`) ON DELETE CASCADE,
  CONSTRAINT `folder_token_program_fk` FOREIGN KEY (`program_id`) REFERENCES `program` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `form` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `program_id` int(11) DEFAULT NULL,
  `workspace` varchar(255) NOT NULL DEFAULT 'Default',
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `form_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `form_field` (
  `form_id` int(11) NOT NULL,
  `field_name` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  PRIMARY KEY (`form_id`,`field_name`),
  CONSTRAINT `form_field_form` FOREIGN KEY (`form_id`) REFERENCES `form` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `instance` (
  `id` tinyint(3) unsigned NOT NULL,
  `munchkin_id` varchar(32) NOT NULL,
  `created_at` datetime NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `lead` (
  `company` text DEFAULT NULL,
  `site` text DEFAULT NULL,
  `billingStreet` mediumtext DEFAULT NULL,
  `billingCity` text DEFAULT NULL,
  `billingState` text DEFAULT NULL,
  `billingCountry` text DEFAULT NULL,
  `billingPostalCode` text DEFAULT NULL,
  `website` text DEFAULT NULL,
  `mainPhone` text DEFAULT NULL,
  `annualRevenue` double DEFAULT NULL,
  `numberOfEmployees` int(11) DEFAULT NULL,
  `industry` text DEFAULT NULL,
  `sicCode` text DEFAULT NULL,
  `mktoCompanyNotes` mediumtext DEFAULT NULL,
  `externalCompanyId` text DEFAULT NULL,
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `mktoName` varchar(255) GENERATED ALWAYS AS (nullif(trim(concat_ws(' ',`firstName`,`lastName`)),'')) VIRTUAL,
  `personType` text DEFAULT NULL,
  `mktoIsPartner` tinyint(1) NOT NULL DEFAULT 0,
  `isLead` tinyint(1) NOT NULL DEFAULT 0,
  `mktoIsCustomer` tinyint(1) NOT NULL DEFAULT 0,
  `isAnonymous` tinyint(1) NOT NULL DEFAULT 0,
  `salutation` text DEFAULT NULL,
  `firstName` text DEFAULT NULL,
  `middleName` text DEFAULT NULL,
  `lastName` text DEFAULT NULL,
  `email` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL,
  `phone` text DEFAULT NULL,
  `mobilePhone` text DEFAULT NULL,
  `fax` text DEFAULT NULL,
  `title` text DEFAULT NULL,
  `contactCompany` int(11) DEFAULT NULL,
  `dateOfBirth` date DEFAULT NULL,
  `address` mediumtext DEFAULT NULL,
  `city` text DEFAULT NULL,
  `state` text DEFAULT NULL,
  `country` text DEFAULT NULL,
  `postalCode` text DEFAULT NULL,
  `personTimeZone` text DEFAULT NULL,
  `originalSourceType` text DEFAULT NULL,
  `originalSourceInfo` text DEFAULT NULL,
  `registrationSourceType` text DEFAULT NULL,
  `registrationSourceInfo` text DEFAULT NULL,
  `originalSearchEngine` text DEFAULT NULL,
  `originalSearchPhrase` text DEFAULT NULL,
  `originalReferrer` text DEFAULT NULL,
  `emailInvalid` tinyint(1) NOT NULL DEFAULT 0,
  `emailInvalidCause` text DEFAULT NULL,
  `unsubscribed` tinyint(1) NOT NULL DEFAULT 0,
  `unsubscribedReason` text DEFAULT NULL,
  `doNotCall` tinyint(1) NOT NULL DEFAULT 0,
  `mktoDoNotCallCause` text DEFAULT NULL,
  `doNotCallReason` text DEFAULT NULL,
  `marketingSuspended` tinyint(1) NOT NULL DEFAULT 0,
  `marketingSuspendedCause` text DEFAULT NULL,
  `blackListed` tinyint(1) NOT NULL DEFAULT 0,
  `blackListedCause` text DEFAULT NULL,
  `mktoPersonNotes` mediumtext DEFAULT NULL,
  `anonymousIP` text DEFAULT NULL,
  `inferredCompany` text DEFAULT NULL,
  `inferredCountry` text DEFAULT NULL,
  `inferredCity` text DEFAULT NULL,
  `inferredStateRegion` text DEFAULT NULL,
  `inferredPostalCode` text DEFAULT NULL,
  `inferredMetropolitanArea` text DEFAULT NULL,
  `inferredPhoneAreaCode` text DEFAULT NULL,
  `emailSuspended` tinyint(1) NOT NULL DEFAULT 0,
  `emailSuspendedCause` text DEFAULT NULL,
  `emailSuspendedAt` datetime DEFAULT NULL,
  `department` text DEFAULT NULL,
  `createdAt` datetime NOT NULL,
  `updatedAt` datetime NOT NULL,
  `cookies` varchar(255) DEFAULT NULL,
  `externalSalesPersonId` text DEFAULT NULL,
  `leadPerson` int(11) GENERATED ALWAYS AS (`id`) VIRTUAL,
  `leadRole` text DEFAULT NULL,
  `leadSource` text DEFAULT NULL,
  `leadStatus` text DEFAULT NULL,
  `leadScore` int(11) DEFAULT NULL,
  `urgency` double DEFAULT NULL,
  `priority` int(11) DEFAULT NULL,
  `relativeScore` int(11) DEFAULT NULL,
  `relativeUrgency` int(11) DEFAULT NULL,
  `rating` text DEFAULT NULL,
  `personPrimaryLeadInterest` int(11) DEFAULT NULL,
  `leadPartitionId` int(11) NOT NULL DEFAULT 1,
  `leadRevenueCycleModelId` int(11) DEFAULT NULL,
  `leadRevenueStageId` int(11) DEFAULT NULL,
  `acquisitionProgramId` int(11) DEFAULT NULL,
  `mktoAcquisitionDate` datetime DEFAULT NULL,
  `ecids` text DEFAULT NULL,
  `facebookId` varchar(255) DEFAULT NULL,
  `linkedInId` varchar(255) DEFAULT NULL,
  `twitterId` varchar(255) DEFAULT NULL,
  `sfdcAccountId` varchar(18) DEFAULT NULL,
  `sfdcContactId` varchar(18) DEFAULT NULL,
  `sfdcLeadId` varchar(18) DEFAULT NULL,
  `sfdcLeadOwnerId` varchar(18) DEFAULT NULL,
  `sfdcOpptyId` varchar(18) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `lead_email` (`email`),
  KEY `lead_updated` (`updatedAt`),
  KEY `lead_partition` (`leadPartitionId`),
  KEY `lead_cookies` (`cookies`),
  KEY `lead_facebookId` (`facebookId`),
  KEY `lead_linkedInId` (`linkedInId`),
  KEY `lead_sfdcAccountId` (`sfdcAccountId`),
  KEY `lead_sfdcContactId` (`sfdcContactId`),
  KEY `lead_sfdcLeadId` (`sfdcLeadId`),
  KEY `lead_sfdcLeadOwnerId` (`sfdcLeadOwnerId`),
  KEY `lead_sfdcOpptyId` (`sfdcOpptyId`),
  KEY `lead_twitterId` (`twitterId`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `lead_claim` (
  `k` bigint(20) unsigned NOT NULL,
  PRIMARY KEY (`k`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `lead_cookie` (
  `cookie` varchar(255) NOT NULL,
  `lead_id` int(11) NOT NULL,
  `created_at` datetime NOT NULL,
  PRIMARY KEY (`cookie`),
  KEY `lead_cookie_lead` (`lead_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `lead_field` (
  `name` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  `attr_id` int(11) NOT NULL AUTO_INCREMENT,
  `display_name` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
  `data_type` varchar(16) NOT NULL,
  `length` int(11) DEFAULT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `soap_name` varchar(64) DEFAULT NULL,
  `read_only` tinyint(1) NOT NULL DEFAULT 0,
  `searchable` tinyint(1) NOT NULL DEFAULT 0,
  `indexed` tinyint(1) NOT NULL DEFAULT 0,
  `is_custom` tinyint(1) NOT NULL DEFAULT 0,
  `is_api_created` tinyint(1) NOT NULL DEFAULT 0,
  `is_hidden` tinyint(1) NOT NULL DEFAULT 0,
  `is_html_encoding` tinyint(1) NOT NULL DEFAULT 1,
  `is_sensitive` tinyint(1) NOT NULL DEFAULT 0,
  `crm_managed` tinyint(1) NOT NULL DEFAULT 0,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`name`),
  UNIQUE KEY `lead_field_attr` (`attr_id`),
  UNIQUE KEY `lead_field_display` (`display_name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `lead_partition` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `lead_partition_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `lead_schema` (
  `id` tinyint(3) unsigned NOT NULL,
  `version` bigint(20) NOT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `limits_host` (
  `host` varchar(64) NOT NULL,
  `window_count` bigint(20) NOT NULL,
  `inflight` bigint(20) NOT NULL,
  `day_key` int(11) NOT NULL,
  `day_count` bigint(20) NOT NULL,
  `updated_at` datetime(6) NOT NULL,
  PRIMARY KEY (`host`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `list_member` (
  `list_id` int(11) NOT NULL,
  `lead_id` int(11) NOT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`list_id`,`lead_id`),
  KEY `list_member_lead` (`lead_id`),
  CONSTRAINT `list_member_list` FOREIGN KEY (`list_id`) REFERENCES `static_list` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `lp_template` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `folder_id` int(11) NOT NULL,
  `workspace_id` int(11) NOT NULL DEFAULT 1,
  `template_type` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `enable_munchkin` tinyint(1) NOT NULL DEFAULT 0,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  `has_draft` tinyint(1) NOT NULL DEFAULT 0,
  `has_approved` tinyint(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `lp_template_name` (`name`),
  KEY `lp_template_folder` (`folder_id`,`id`),
  CONSTRAINT `lp_template_folder_fk` FOREIGN KEY (`folder_id`) REFERENCES `folder` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `lp_template_version` (
  `template_id` int(11) NOT NULL,
  `status` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `content` mediumtext NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`template_id`,`status`),
  CONSTRAINT `lp_template_version_fk` FOREIGN KEY (`template_id`) REFERENCES `lp_template` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `outbox` (
  `id` bigint(20) NOT NULL AUTO_INCREMENT,
  `created_at` datetime(3) NOT NULL,
  `kind` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `email_id` int(11) DEFAULT NULL,
  `lead_id` int(11) DEFAULT NULL,
  `campaign_id` int(11) DEFAULT NULL,
  `run_id` bigint(20) DEFAULT NULL,
  `step_id` int(11) DEFAULT NULL,
  `choice_num` int(11) DEFAULT NULL,
  `asset_name` varchar(255) DEFAULT NULL,
  `mail_from` varchar(254) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `rcpt_to` varchar(254) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `subject` varchar(1000) NOT NULL,
  `message` mediumtext NOT NULL,
  `status` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `smtp_code` smallint(6) DEFAULT NULL,
  `smtp_reply` varchar(1000) DEFAULT NULL,
  `finished_at` datetime(3) DEFAULT NULL,
  `lease_owner` char(24) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `lease_until` bigint(20) DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `outbox_step` (`run_id`,`lead_id`,`step_id`),
  KEY `outbox_email` (`email_id`),
  KEY `outbox_delivery` (`status`,`id`),
  KEY `outbox_campaign` (`campaign_id`,`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `program` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `type` varchar(32) NOT NULL,
  `channel` varchar(255) NOT NULL,
  `workspace` varchar(255) NOT NULL DEFAULT 'Default',
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  `folder_id` int(11) NOT NULL DEFAULT 1,
  `start_date` datetime DEFAULT NULL,
  `end_date` datetime DEFAULT NULL,
  `locked` tinyint(1) NOT NULL DEFAULT 0,
  `send_campaign_id` int(11) DEFAULT NULL,
  `send_run_id` bigint(20) DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `program_name` (`name`),
  KEY `program_folder` (`folder_id`),
  CONSTRAINT `program_folder_fk` FOREIGN KEY (`folder_id`) REFERENCES `folder` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `program_cost` (
  `program_id` int(11) NOT NULL,
  `position` int(11) NOT NULL,
  `start_date` date NOT NULL,
  `cost` bigint(20) NOT NULL,
  `note` varchar(255) DEFAULT NULL,
  PRIMARY KEY (`program_id`,`position`),
  CONSTRAINT `program_cost_program` FOREIGN KEY (`program_id`) REFERENCES `program` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `program_member` (
  `program_id` int(11) NOT NULL,
  `lead_id` int(11) NOT NULL,
  `status_step` int(11) NOT NULL,
  `acquired_by` tinyint(1) NOT NULL DEFAULT 0,
  `reached_success` tinyint(1) NOT NULL DEFAULT 0,
  `is_exhausted` tinyint(1) NOT NULL DEFAULT 0,
  `stream` varchar(255) DEFAULT NULL,
  `nurture_cadence` varchar(16) DEFAULT NULL,
  `membership_date` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`program_id`,`lead_id`),
  KEY `program_member_lead` (`lead_id`),
  CONSTRAINT `program_member_program` FOREIGN KEY (`program_id`) REFERENCES `program` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `program_status` (
  `program_id` int(11) NOT NULL,
  `step` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  `success` tinyint(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`program_id`,`step`),
  UNIQUE KEY `program_status_name` (`program_id`,`name`),
  CONSTRAINT `program_status_program` FOREIGN KEY (`program_id`) REFERENCES `program` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `program_tag` (
  `program_id` int(11) NOT NULL,
  `tag_type_id` int(11) NOT NULL,
  `value` varchar(255) NOT NULL,
  PRIMARY KEY (`program_id`,`tag_type_id`),
  KEY `program_tag_value` (`tag_type_id`,`value`,`program_id`),
  CONSTRAINT `program_tag_program` FOREIGN KEY (`program_id`) REFERENCES `program` (`id`) ON DELETE CASCADE,
  CONSTRAINT `program_tag_type` FOREIGN KEY (`tag_type_id`) REFERENCES `tag_type` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `sc_choice_attr` (
  `choice_id` int(11) NOT NULL,
  `attrib_id` int(11) NOT NULL,
  `value` varchar(2000) NOT NULL,
  PRIMARY KEY (`choice_id`,`attrib_id`),
  KEY `sc_choice_attr_value` (`value`(32)),
  CONSTRAINT `sc_choice_attr_choice` FOREIGN KEY (`choice_id`) REFERENCES `sc_step_choice` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `sc_flow_attrib` (
  `flow_type_id` int(11) NOT NULL,
  `id` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  `data_type` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `is_primary` tinyint(1) NOT NULL DEFAULT 0,
  `is_required` tinyint(1) NOT NULL DEFAULT 1,
  `choices` varchar(1024) DEFAULT NULL,
  `position` int(11) NOT NULL,
  PRIMARY KEY (`flow_type_id`,`id`),
  CONSTRAINT `sc_flow_attrib_type` FOREIGN KEY (`flow_type_id`) REFERENCES `sc_flow_type` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `sc_flow_step` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `campaign_id` int(11) NOT NULL,
  `position` int(11) NOT NULL,
  `flow_type_id` int(11) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `sc_flow_step_pos` (`campaign_id`,`position`),
  KEY `sc_flow_step_type` (`flow_type_id`),
  CONSTRAINT `sc_flow_step_campaign` FOREIGN KEY (`campaign_id`) REFERENCES `smart_campaign` (`id`) ON DELETE CASCADE,
  CONSTRAINT `sc_flow_step_type` FOREIGN KEY (`flow_type_id`) REFERENCES `sc_flow_type` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `sc_flow_type` (
  `id` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `sc_flow_type_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `sc_step_choice` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `step_id` int(11) NOT NULL,
  `position` int(11) NOT NULL,
  `is_default` tinyint(1) NOT NULL DEFAULT 0,
  `cond_kind` varchar(16) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `cond_type_id` int(11) DEFAULT NULL,
  `cond_operator` varchar(32) DEFAULT NULL,
  `cond_vals` text DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `sc_step_choice_pos` (`step_id`,`position`),
  CONSTRAINT `sc_step_choice_step` FOREIGN KEY (`step_id`) REFERENCES `sc_flow_step` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `schema_migrations` (
  `version` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  `checksum` char(64) NOT NULL,
  `done` tinyint(1) NOT NULL DEFAULT 0,
  `started_at` datetime(3) NOT NULL,
  `finished_at` datetime(3) DEFAULT NULL,
  PRIMARY KEY (`version`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `segment` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `segmentation_id` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  `position` int(11) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `segment_name` (`segmentation_id`,`name`),
  UNIQUE KEY `segment_position` (`segmentation_id`,`position`),
  CONSTRAINT `segment_segmentation` FOREIGN KEY (`segmentation_id`) REFERENCES `segmentation` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `segmentation` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `workspace_id` int(11) NOT NULL DEFAULT 1,
  `status` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'approved',
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `segmentation_name` (`name`),
  KEY `segmentation_ws` (`workspace_id`),
  CONSTRAINT `segmentation_ws` FOREIGN KEY (`workspace_id`) REFERENCES `workspace` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `sl_constraint` (
  `rule_type_id` int(11) NOT NULL,
  `id` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  `data_type` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `is_primary` tinyint(1) NOT NULL DEFAULT 0,
  `operators` varchar(255) NOT NULL,
  `position` int(11) NOT NULL,
  PRIMARY KEY (`rule_type_id`,`id`),
  CONSTRAINT `sl_constraint_type` FOREIGN KEY (`rule_type_id`) REFERENCES `sl_rule_type` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `sl_operator` (
  `data_type` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `operators` varchar(255) NOT NULL,
  PRIMARY KEY (`data_type`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `sl_rule_type` (
  `id` int(11) NOT NULL,
  `name` varchar(255) NOT NULL,
  `kind` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `is_filter` tinyint(1) NOT NULL,
  `is_trigger` tinyint(1) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `sl_rule_type_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `smart_campaign` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `folder_id` int(11) DEFAULT NULL,
  `program_id` int(11) DEFAULT NULL,
  `workspace_id` int(11) NOT NULL DEFAULT 1,
  `smart_list_id` int(11) DEFAULT NULL,
  `is_active` tinyint(1) NOT NULL DEFAULT 0,
  `is_system` tinyint(1) NOT NULL DEFAULT 0,
  `communication_limit` tinyint(1) NOT NULL DEFAULT 1,
  `qualification_rule_type` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'once',
  `qualification_rule_interval` int(11) DEFAULT NULL,
  `qualification_rule_unit` varchar(8) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
  `max_members` int(11) DEFAULT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  `flow_rev` int(10) unsigned NOT NULL DEFAULT 0,
  `flow_lead_ver` bigint(20) NOT NULL DEFAULT 0,
  `flow_co_ver` bigint(20) NOT NULL DEFAULT 0,
  `flow_json` mediumtext DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `smart_campaign_name` (`name`),
  KEY `smart_campaign_folder` (`folder_id`,`id`),
  KEY `smart_campaign_program` (`program_id`,`id`),
  KEY `smart_campaign_active` (`is_active`,`id`),
  KEY `smart_campaign_updated` (`updated_at`,`id`),
  KEY `smart_campaign_ws` (`workspace_id`),
  KEY `smart_campaign_list` (`smart_list_id`),
  CONSTRAINT `smart_campaign_folder_fk` FOREIGN KEY (`folder_id`) REFERENCES `folder` (`id`),
  CONSTRAINT `smart_campaign_list` FOREIGN KEY (`smart_list_id`) REFERENCES `smart_list` (`id`),
  CONSTRAINT `smart_campaign_program_fk` FOREIGN KEY (`program_id`) REFERENCES `program` (`id`),
  CONSTRAINT `smart_campaign_ws` FOREIGN KEY (`workspace_id`) REFERENCES `workspace` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `smart_list` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `folder_id` int(11) DEFAULT NULL,
  `program_id` int(11) DEFAULT NULL,
  `workspace_id` int(11) NOT NULL DEFAULT 1,
  `filter_match_type` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'all',
  `custom_rule_logic` varchar(2000) DEFAULT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  `campaign_id` int(11) DEFAULT NULL,
  `name_key` varchar(255) GENERATED ALWAYS AS (if(`campaign_id` is null,`name`,NULL)) STORED,
  `trigger_count` int(11) NOT NULL DEFAULT 0,
  `filter_count` int(11) NOT NULL DEFAULT 0,
  `api_requested` tinyint(1) NOT NULL DEFAULT 0,
  `rules_rev` int(10) unsigned NOT NULL DEFAULT 0,
  `rules_lead_ver` bigint(20) NOT NULL DEFAULT 0,
  `rules_co_ver` bigint(20) NOT NULL DEFAULT 0,
  `rules_json` mediumtext DEFAULT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `smart_list_name` (`name_key`),
  KEY `smart_list_folder` (`folder_id`,`id`),
  KEY `smart_list_program` (`program_id`,`id`),
  KEY `smart_list_ws` (`workspace_id`),
  KEY `smart_list_campaign` (`campaign_id`),
  CONSTRAINT `smart_list_folder_fk` FOREIGN KEY (`folder_id`) REFERENCES `folder` (`id`),
  CONSTRAINT `smart_list_program_fk` FOREIGN KEY (`program_id`) REFERENCES `program` (`id`),
  CONSTRAINT `smart_list_ws` FOREIGN KEY (`workspace_id`) REFERENCES `workspace` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `smart_list_condition` (
  `rule_id` int(11) NOT NULL,
  `attribute_id` int(11) NOT NULL,
  `operator` varchar(32) NOT NULL,
  `vals` text NOT NULL,
  PRIMARY KEY (`rule_id`,`attribute_id`),
  CONSTRAINT `smart_list_condition_rule` FOREIGN KEY (`rule_id`) REFERENCES `smart_list_rule` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `smart_list_rule` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `smart_list_id` int(11) NOT NULL,
  `position` int(11) NOT NULL,
  `kind` varchar(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `rule_type_id` int(11) NOT NULL,
  `is_trigger` tinyint(1) NOT NULL DEFAULT 0,
  `is_negative` tinyint(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `smart_list_rule_pos` (`smart_list_id`,`position`),
  KEY `smart_list_rule_type` (`rule_type_id`,`kind`),
  CONSTRAINT `smart_list_rule_list` FOREIGN KEY (`smart_list_id`) REFERENCES `smart_list` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `snippet` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `workspace_id` int(11) NOT NULL DEFAULT 1,
  `status` varchar(8) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'approved',
  `content` mediumtext NOT NULL,
  `text_content` mediumtext NOT NULL,
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `snippet_name` (`name`),
  KEY `snippet_ws` (`workspace_id`),
  CONSTRAINT `snippet_ws` FOREIGN KEY (`workspace_id`) REFERENCES `workspace` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `static_list` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(2000) DEFAULT NULL,
  `folder_id` int(11) DEFAULT NULL,
  `program_id` int(11) DEFAULT NULL,
  `workspace` varchar(255) NOT NULL DEFAULT 'Default',
  `created_at` datetime NOT NULL,
  `updated_at` datetime NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `static_list_name` (`name`),
  KEY `static_list_folder` (`folder_id`,`id`),
  KEY `static_list_program` (`program_id`,`id`),
  CONSTRAINT `static_list_folder_fk` FOREIGN KEY (`folder_id`) REFERENCES `folder` (`id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `tag_type` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `program_types` varchar(255) NOT NULL,
  `required` tinyint(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`id`),
  UNIQUE KEY `tag_type_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `tag_value` (
  `tag_type_id` int(11) NOT NULL,
  `position` int(11) NOT NULL,
  `value` varchar(255) NOT NULL,
  PRIMARY KEY (`tag_type_id`,`position`),
  UNIQUE KEY `tag_value_value` (`tag_type_id`,`value`),
  CONSTRAINT `tag_value_type` FOREIGN KEY (`tag_type_id`) REFERENCES `tag_type` (`id`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `trigger_listen` (
  `activity_type_id` int(11) NOT NULL,
  PRIMARY KEY (`activity_type_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE `workspace` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  PRIMARY KEY (`id`),
  UNIQUE KEY `workspace_name` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
