-- Custom object types: how many fields approvals after the first added
-- (docs/behaviour.md §6.1: at most 20 fields may be added to a type once
-- it is approved).  The approval that promotes a draft adds the number
-- of its fields the approved version lacked; a draft is refused a field
-- that would take this plus its own new fields past the limit.
ALTER TABLE co_type ADD COLUMN added_after_approval INT NOT NULL DEFAULT 0;

