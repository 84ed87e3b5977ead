-- Keys for distribution by subscription: original_transaction_id, the unit every analysis works on, is part of every
-- primary key and unique constraint of notifications and of the per-subscription tables (billing_episodes,
-- subscription_analysis and subscription_renewals have had it from the start). That is the rule of a table
-- hash-distributed by one column (Citus's create_distributed_table, see docs/SCALING.md) and of a table
-- hash-partitioned by it (the partitioned layout, `churn migrate --layout partitioned`): each unique index must be
-- checkable inside one shard or partition. Upgrades a database in place; every statement can run again.
--
-- A notification without a transaction (a TEST notification, an external purchase token, anything whose signed
-- transaction and renewal info carry no originalTransactionId) has original_transaction_id '', the value
-- subscription_analysis has always used for "no subscription": a key column cannot be NULL. Readers treat '' as no
-- subscription, as they treated NULL.
--
-- Each notificationUUID is still stored once. A notification's content decides its original_transaction_id (the
-- loader takes it from the signed transaction, else from the signed renewal info, else ''), and every delivery of a
-- notificationUUID carries the same signed content (Apple's retries resend it; the notification history returns it
-- as sent). Two rows with one notification_uuid would therefore have one original_transaction_id, and a unique
-- (original_transaction_id, notification_uuid) makes notification_uuid unique. The loader asks which notifications
-- are stored by these pairs, through this primary key; `churn gaps` looks up the pairs of Apple's history the same
-- way, so nothing needs an index on notification_uuid alone.

UPDATE notifications SET original_transaction_id = '' WHERE original_transaction_id IS NULL;
ALTER TABLE notifications
    ALTER COLUMN original_transaction_id SET DEFAULT '',
    ALTER COLUMN original_transaction_id SET NOT NULL;

-- The primary key (notification_uuid) becomes (original_transaction_id, notification_uuid): one index build over the
-- table. The index on (original_transaction_id, signed_date, notification_uuid) that analyses read in order stays.
DO $$
BEGIN
    IF NOT EXISTS (
        SELECT FROM pg_constraint
        WHERE conrelid = 'notifications'::regclass AND contype = 'p'
          AND pg_get_constraintdef(oid) = 'PRIMARY KEY (original_transaction_id, notification_uuid)'
    ) THEN
        ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_pkey;
        ALTER TABLE notifications
            ADD CONSTRAINT notifications_pkey PRIMARY KEY (original_transaction_id, notification_uuid);
    END IF;
END
$$;

-- The references to the run and the file that stored each notification, which a schema of the partitioned layout
-- gets here: its notifications table is made before load_runs and source_files exist (sql/layouts/partitioned.sql).
DO $$
BEGIN
    IF NOT EXISTS (
        SELECT FROM pg_constraint
        WHERE conrelid = 'notifications'::regclass AND conname = 'notifications_source_file_id_fkey'
    ) THEN
        ALTER TABLE notifications
            ADD CONSTRAINT notifications_source_file_id_fkey FOREIGN KEY (source_file_id) REFERENCES source_files (id);
    END IF;
    IF NOT EXISTS (
        SELECT FROM pg_constraint
        WHERE conrelid = 'notifications'::regclass AND conname = 'notifications_load_run_id_fkey'
    ) THEN
        ALTER TABLE notifications
            ADD CONSTRAINT notifications_load_run_id_fkey FOREIGN KEY (load_run_id) REFERENCES load_runs (id);
    END IF;
END
$$;

COMMENT ON COLUMN notifications.original_transaction_id IS
    'The subscription: the originalTransactionId of the signed transaction, else of the signed renewal info; '''' for '
    'a notification without one (TEST, external purchase tokens). Part of the primary key, and the column the '
    'partitioned layout and a distributed database split the table by.';

-- Which layout the schema has: plain tables, or notifications and the per-subscription tables hash-partitioned by
-- original_transaction_id into `partitions` partitions. A layout is chosen when a schema is created (a schema made
-- before this migration is plain); later migrations keep it.
CREATE TABLE IF NOT EXISTS schema_layout (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    layout      text NOT NULL CHECK (layout IN ('plain', 'partitioned')),
    partitions  integer CHECK (partitions > 0),
    created_at  timestamptz NOT NULL DEFAULT now(),
    CHECK ((layout = 'partitioned') = (partitions IS NOT NULL))
);

INSERT INTO schema_layout (layout) VALUES ('plain') ON CONFLICT (singleton) DO NOTHING;

COMMENT ON TABLE schema_layout IS
    'One row: the layout of this schema''s tables, plain or partitioned (notifications, billing_episodes, '
    'subscription_analysis and subscription_renewals hash-partitioned by original_transaction_id), chosen when the '
    'schema was created.';
