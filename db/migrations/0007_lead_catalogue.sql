-- The standard lead field catalogue as a real instance describes it
-- (docs/behaviour.md §5.1): display names and SOAP names as a default
-- instance's Describe Lead reply gives them, no SOAP name for the fields
-- that only the REST API has, and the field schema attributes the
-- documentation's examples show (email is sensitive; date, datetime and
-- boolean fields are not HTML-encoded in emails).  Data only: the lead
-- table and the catalogue's columns are unchanged.
UPDATE lead_field SET display_name = 'Billing Address'
	WHERE name = 'billingStreet';
UPDATE lead_field SET display_name = 'Date of Birth', soap_name = 'DateofBirth'
	WHERE name = 'dateOfBirth';
UPDATE lead_field SET display_name = 'Role' WHERE name = 'leadRole';
UPDATE lead_field SET display_name = 'Lead Rating' WHERE name = 'rating';
UPDATE lead_field SET display_name = 'Primary Lead Interest',
	soap_name = 'Person Primary Lead Interest'
	WHERE name = 'personPrimaryLeadInterest';
UPDATE lead_field SET display_name = 'Lead Revenue Cycle Model ID',
	soap_name = 'Lead Revenue Cycle Model ID'
	WHERE name = 'leadRevenueCycleModelId';
UPDATE lead_field SET display_name = 'Lead Revenue Stage ID',
	soap_name = 'Lead Revenue Stage ID'
	WHERE name = 'leadRevenueStageId';
UPDATE lead_field SET display_name = 'Acquisition Program',
	soap_name = 'Acquisition Program ID'
	WHERE name = 'acquisitionProgramId';
UPDATE lead_field SET soap_name = 'SICCode' WHERE name = 'sicCode';
UPDATE lead_field SET soap_name = 'Contact Company'
	WHERE name = 'contactCompany';
UPDATE lead_field SET soap_name = 'Lead Person' WHERE name = 'leadPerson';
UPDATE lead_field SET soap_name = 'Lead Partition ID'
	WHERE name = 'leadPartitionId';

-- Fields of the REST API only: no SOAP name.
UPDATE lead_field SET soap_name = NULL WHERE name IN ('externalCompanyId',
	'mktoName', 'mktoIsPartner', 'mktoIsCustomer', 'isAnonymous',
	'personTimeZone', 'mktoDoNotCallCause', 'marketingSuspended',
	'marketingSuspendedCause', 'blackListed', 'blackListedCause',
	'inferredCity', 'inferredStateRegion', 'inferredPostalCode',
	'inferredMetropolitanArea', 'inferredPhoneAreaCode', 'emailSuspended',
	'emailSuspendedCause', 'emailSuspendedAt', 'createdAt', 'updatedAt',
	'cookies', 'externalSalesPersonId', 'urgency', 'priority',
	'relativeScore', 'relativeUrgency', 'mktoAcquisitionDate', 'ecids');

UPDATE lead_field SET is_sensitive = 1 WHERE name = 'email';
UPDATE lead_field SET is_html_encoding = 0
	WHERE data_type IN ('date', 'datetime', 'boolean');
