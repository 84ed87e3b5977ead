import PGClient

/// The declaration of each table the migrations make: every column and its type, in the order a COPY row writes them
/// (``PGTable``).
///
/// A declaration is the one list of its table's columns in Swift: COPY statements, binary field types and select
/// lists follow from it. The migrations in `sql/` make the tables; `StoredTablesTests` holds each declaration to the
/// table they make, in either schema layout. A new column is added in three places: a numbered migration, its
/// table's declaration here, and the code that writes or reads it.
package enum StoredTables {
    /// One row per stored notification, written by the loader (`NotificationRow.encode`); its staging table has the
    /// same columns.
    package static let notifications = PGTable(
        "notifications",
        [
            "notification_uuid": .uuid, "notification_type": .text, "subtype": .text, "signed_date": .timestamptz,
            "version": .text, "environment": .text, "bundle_id": .text, "app_apple_id": .bigint, "status": .smallint,
            "original_transaction_id": .text, "transaction_id": .text, "web_order_line_item_id": .text,
            "product_id": .text, "subscription_group_identifier": .text, "storefront": .text, "storefront_id": .text,
            "purchase_date": .timestamptz, "original_purchase_date": .timestamptz, "expires_date": .timestamptz,
            "price": .bigint, "currency": .text, "in_app_ownership_type": .text, "transaction_reason": .text,
            "offer_type": .integer, "offer_identifier": .text, "offer_discount_type": .text, "offer_period": .text,
            "revocation_date": .timestamptz, "revocation_reason": .integer, "grace_period_expires_date": .timestamptz,
            "is_in_billing_retry_period": .boolean, "expiration_intent": .integer, "auto_renew_status": .integer,
            "auto_renew_product_id": .text, "renewal_price": .bigint, "renewal_currency": .text,
            "renewal_date": .timestamptz, "app_account_token": .text, "app_transaction_id": .text, "payload": .jsonb,
            "verified": .boolean, "source_file_id": .bigint, "source_line": .bigint, "load_run_id": .bigint,
            "signed_payload_sha256": .bytea, "previous_original_transaction_id": .text, "revocation_type": .text,
            "revocation_percentage": .integer, "billing_plan_type": .text, "commitment_billing_period_number": .integer,
            "commitment_total_billing_periods": .integer, "commitment_expires_date": .timestamptz,
            "commitment_price": .bigint, "renewal_billing_plan_type": .text, "renewal_commitment_product_id": .text,
            "renewal_commitment_auto_renew_status": .integer, "renewal_commitment_billing_plan_type": .text,
            "renewal_commitment_date": .timestamptz, "renewal_commitment_price": .bigint,
        ]
    )

    /// One row per billing-issue episode, written by the analysis (`EpisodeRows`).
    package static let billingEpisodes = PGTable(
        "billing_episodes",
        [
            "environment": .text, "original_transaction_id": .text, "sequence": .integer, "product_id": .text,
            "storefront": .text, "start_at": .timestamptz, "has_grace": .boolean, "grace_end": .timestamptz,
            "end_at": .timestamptz, "outcome": .text, "duration": .interval, "saved_in_grace": .boolean,
            "recovery_price": .bigint, "recovery_currency": .text, "cohort_month": .text, "cohort_week": .text,
            "offer_type": .integer, "offer_discount_type": .text, "trial_conversion": .boolean,
            "opening_notification_uuid": .uuid, "closing_notification_uuid": .uuid, "recovered_by": .text,
            "end_inferred": .boolean, "grace_end_inferred": .boolean, "stake_price": .bigint, "stake_currency": .text,
            "bundle_id": .text, "app_account_token": .text, "grace_days": .integer, "window_end": .timestamptz,
            "matures_at": .timestamptz, "revocation_type": .text, "revocation_percentage": .integer,
            "billing_plan": .text, "installments_at_risk": .integer, "opening_price": .bigint, "period_days": .integer,
            "proven_recovery_transaction_id": .text,
        ]
    )

    /// One row per analyzed subscription with a data-quality count above zero, written by the analysis.
    package static let subscriptionAnalysis = PGTable(
        "subscription_analysis",
        [
            "environment": .text, "original_transaction_id": .text, "outside_environment": .integer,
            "family_shared_skipped": .integer, "orphan_did_renew_billing_recovery": .integer,
            "orphan_expired_billing_retry": .integer, "orphan_grace_period_expired": .integer,
            "stale_failure_notice": .integer, "late_failure_notice": .integer,
        ]
    )

    /// One row per analyzed subscription and month with ordinary renewals, written by the analysis.
    package static let subscriptionRenewals = PGTable(
        "subscription_renewals",
        ["environment": .text, "original_transaction_id": .text, "month": .text, "renewals": .integer]
    )

    /// One row per environment and month with ordinary renewals: the sums of `subscription_renewals` by month, kept
    /// by the analysis so a report reads a few rows instead of one per subscription and month.
    package static let renewalMonths = PGTable(
        "renewal_months", ["environment": .text, "month": .text, "renewals": .bigint]
    )

    /// One row per analysed subscription and key that links it to a customer, written by the analysis.
    package static let subscriptionLinks = PGTable(
        "subscription_links",
        ["environment": .text, "original_transaction_id": .text, "link": .text, "first_signed": .timestamptz]
    )

    /// One row per `SUBSCRIBED` or `OFFER_REDEEMED` notification of an analysed subscription, written by the analysis.
    package static let subscriptionPurchases = PGTable(
        "subscription_purchases",
        [
            "environment": .text, "original_transaction_id": .text, "purchase_date": .timestamptz,
            "signed_date": .timestamptz, "notification_uuid": .uuid, "notification_type": .text, "subtype": .text,
            "bundle_id": .text, "product_id": .text,
        ]
    )

    /// One row per subscription linked to another, with its customer, written after each analysis.
    package static let subscriptionCustomers = PGTable(
        "subscription_customers",
        ["environment": .text, "original_transaction_id": .text, "customer_id": .text]
    )

    /// One row per refused input (`churn quarantine`).
    package static let quarantine = PGTable(
        "quarantine",
        [
            "id": .bigint, "load_run_id": .bigint, "source_file_id": .bigint, "file": .text, "line": .bigint,
            "item": .integer, "reason": .text, "detail": .text, "raw": .text, "raw_bytes": .bigint,
            "raw_truncated": .boolean, "quarantined_at": .timestamptz, "original_transaction_id": .text,
            "notification_uuid": .uuid, "signed_date": .timestamptz, "environment": .text, "resolved_by_run": .bigint,
        ]
    )

    /// One row per event of the app's message log (`churn messages load`).
    package static let messageEvents = PGTable(
        "message_events",
        [
            "id": .bigint, "original_transaction_id": .text, "app_account_token": .text, "at": .timestamptz,
            "action": .text, "arm": .text, "source_file_id": .bigint, "source_line": .bigint,
        ]
    )

    /// One row per fetched range of the notification history (`churn fetch`).
    package static let fetchCheckpoints = PGTable(
        "fetch_checkpoints",
        [
            "id": .bigint, "environment": .text, "bundle_id": .text, "start_date": .timestamptz,
            "end_date": .timestamptz, "notification_type": .text, "notification_subtype": .text,
            "only_failures": .boolean, "directory": .text, "status": .text, "pagination_token": .text,
            "last_page_kept": .boolean, "pages": .integer, "notifications": .bigint, "malformed_pages": .integer,
            "file_part": .integer, "part_pages": .integer, "part_notifications": .bigint, "part_bytes": .bigint,
            "part_start_token": .text, "started_at": .timestamptz, "updated_at": .timestamptz,
            "finished_at": .timestamptz, "error": .text,
        ]
    )

    /// One row per episode checked against Apple's subscription status (`churn repair`).
    package static let subscriptionChecks = PGTable(
        "subscription_checks",
        [
            "id": .bigint, "environment": .text, "bundle_id": .text, "original_transaction_id": .text,
            "episode_sequence": .integer, "episode_start": .timestamptz, "reason": .text, "expected": .text,
            "directory": .text, "state": .text, "verdict": .text, "apple_status": .smallint,
            "apple_expires_date": .timestamptz, "apple_grace_period_expires_date": .timestamptz,
            "apple_in_billing_retry": .boolean, "history_start": .timestamptz, "history_end": .timestamptz,
            "pagination_token": .text, "pages": .integer, "notifications": .integer, "part_bytes": .bigint,
            "history_file": .text, "created_at": .timestamptz, "checked_at": .timestamptz,
            "finished_at": .timestamptz, "error": .text, "apple_error_code": .bigint, "history_kind": .text,
            "retry_window_end": .timestamptz, "transactions": .integer, "proof_transaction_id": .text,
            "proof_purchase_date": .timestamptz, "proof_signed_transaction": .text, "proof_price": .bigint,
            "proof_currency": .text, "proof_analyzed": .boolean,
        ]
    )

    /// One row per copy of a stored notification that came again from another file or line, written by the loader.
    package static let notificationCopies = PGTable(
        "notification_copies",
        [
            "original_transaction_id": .text, "notification_uuid": .uuid, "signed_date": .timestamptz,
            "source_file_id": .bigint, "source_line": .bigint,
        ]
    )

    /// One row per `churn load` (or nightly load), with its counts and status.
    package static let loadRuns = PGTable(
        "load_runs",
        [
            "id": .bigint, "started_at": .timestamptz, "finished_at": .timestamptz, "status": .text, "command": .text,
            "verified": .boolean, "files": .integer, "records": .bigint, "loaded": .bigint, "duplicates": .bigint,
            "rejected": .bigint, "error": .text, "acceptance": .text,
        ]
    )

    /// One row per export file loaded, with its SHA-256 once it is stored whole.
    package static let sourceFiles = PGTable(
        "source_files",
        [
            "id": .bigint, "load_run_id": .bigint, "path": .text, "size_bytes": .bigint, "sha256": .text,
            "records": .bigint, "loaded": .bigint, "duplicates": .bigint, "rejected": .bigint,
            "loaded_at": .timestamptz,
        ]
    )

    /// One row per environment and file the analysis has taken in, and whether a nightly run has counted it.
    package static let analyzedFiles = PGTable(
        "analyzed_files",
        [
            "environment": .text, "source_file_id": .bigint, "analyzed_at": .timestamptz,
            "seen_by_nightly": .boolean,
        ]
    )

    /// The database's identity, one row, which reports record so they compare only with reports of the same database.
    package static let databaseIdentity = PGTable(
        "database_identity", ["singleton": .boolean, "id": .uuid, "created_at": .timestamptz]
    )

    /// The schema's layout, one row, chosen when the schema is created (``SchemaLayout``).
    package static let schemaLayout = PGTable(
        "schema_layout",
        ["singleton": .boolean, "layout": .text, "partitions": .integer, "created_at": .timestamptz]
    )

    /// One row per migration applied (``Migrator``).
    package static let schemaMigrations = PGTable(
        "schema_migrations", ["version": .integer, "name": .text, "applied_at": .timestamptz]
    )

    /// One row per repeatable script applied, `sql/views.sql`, with the text applied (``Migrator``).
    package static let schemaRepeatables = PGTable(
        "schema_repeatables", ["name": .text, "sql": .text, "applied_at": .timestamptz]
    )

    /// The tables the analysis rebuilds for an environment.
    package static let episodeTables = [
        billingEpisodes, subscriptionAnalysis, subscriptionRenewals, subscriptionLinks, subscriptionPurchases,
    ]

    /// Every table the migrations make (``StoredTablesTests`` holds the two lists equal).
    package static let all = [
        notifications, billingEpisodes, subscriptionAnalysis, subscriptionRenewals, renewalMonths, subscriptionLinks,
        subscriptionPurchases, subscriptionCustomers, quarantine, messageEvents, fetchCheckpoints, subscriptionChecks,
        notificationCopies, loadRuns, sourceFiles, analyzedFiles, databaseIdentity, schemaLayout, schemaMigrations,
        schemaRepeatables,
    ]
}
