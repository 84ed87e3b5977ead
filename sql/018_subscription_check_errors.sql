-- Apple's error code on a subscription check (`churn repair`), and the state of a check whose history Apple refused.
-- A request about one subscription that Apple answers with an error (TransactionIdNotFoundError 4040010, or a
-- retryable error such as AccountNotFoundRetryableError 4040002 that stayed through the retries) is recorded on that
-- subscription's check, and the repair goes on with the next one: the check's state is 'failed' when its history
-- could not be fetched (its verdict stays 'differs'), and the code is in apple_error_code (also for a status request
-- Apple refused, verdict 'refused'). A failed check is checked again like a done one, after --stale-days. Every
-- statement can run again.

ALTER TABLE subscription_checks ADD COLUMN IF NOT EXISTS apple_error_code bigint;

ALTER TABLE subscription_checks DROP CONSTRAINT IF EXISTS subscription_checks_state_check;
ALTER TABLE subscription_checks ADD CONSTRAINT subscription_checks_state_check
    CHECK (state IN ('pending', 'fetching', 'done', 'failed'));

COMMENT ON COLUMN subscription_checks.apple_error_code IS
    'Apple''s errorCode when Apple answered a request of this check with an error (e.g. 4040010 TransactionIdNotFoundError); error has the whole message.';
