// Replaced by decision_by_status_review_after (107): the seek now skips decisions not active.
DROP INDEX decision_by_review_after IF EXISTS
