-- Which database this is: a random id made once, when this migration runs. Each report records it in its
-- headline.json, and a report compares only with earlier reports of the same id, so reports of a demo and of
-- production data in one reports directory never stand for one another's history. A copy of the database
-- (pg_dump and restore) keeps the id and so continues its history. Every statement can run again.
CREATE TABLE IF NOT EXISTS database_identity (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    id          uuid NOT NULL DEFAULT gen_random_uuid(),
    created_at  timestamptz NOT NULL DEFAULT now()
);

INSERT INTO database_identity DEFAULT VALUES ON CONFLICT (singleton) DO NOTHING;

COMMENT ON TABLE database_identity IS
    'One row: the identity of this database (of this schema, when several share one database), recorded as '
    'database_id in each report''s headline.json; reports compare only with earlier reports of the same id.';
