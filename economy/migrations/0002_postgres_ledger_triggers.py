"""PostgreSQL guards of the ledger (SQLite relies on the Python checks).

* A deferred constraint trigger: at commit, every transaction touched has at least
  two entries and they sum to zero.
* Append-only: UPDATE and DELETE of transactions and entries are refused.
"""

from django.db import migrations

BALANCED = """
CREATE OR REPLACE FUNCTION economy_transaction_balanced() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    tx_id bigint;
    total numeric;
    n integer;
BEGIN
    IF TG_TABLE_NAME = 'economy_transaction' THEN
        tx_id := NEW.id;
    ELSIF TG_OP = 'DELETE' THEN
        tx_id := OLD.transaction_id;
    ELSE
        tx_id := NEW.transaction_id;
    END IF;
    SELECT COALESCE(SUM(amount), 0), COUNT(*) INTO total, n
    FROM economy_entry WHERE transaction_id = tx_id;
    IF total <> 0 OR n < 2 THEN
        RAISE EXCEPTION
            'ledger transaction % is unbalanced: % entries summing to %',
            tx_id, n, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER economy_entry_balanced
    AFTER INSERT OR UPDATE OR DELETE ON economy_entry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION economy_transaction_balanced();

CREATE CONSTRAINT TRIGGER economy_transaction_balanced
    AFTER INSERT ON economy_transaction
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION economy_transaction_balanced();

CREATE OR REPLACE FUNCTION economy_ledger_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER economy_entry_append_only
    BEFORE UPDATE OR DELETE ON economy_entry
    FOR EACH ROW EXECUTE FUNCTION economy_ledger_append_only();

CREATE TRIGGER economy_transaction_append_only
    BEFORE UPDATE OR DELETE ON economy_transaction
    FOR EACH ROW EXECUTE FUNCTION economy_ledger_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS economy_transaction_append_only ON economy_transaction;
DROP TRIGGER IF EXISTS economy_entry_append_only ON economy_entry;
DROP FUNCTION IF EXISTS economy_ledger_append_only();
DROP TRIGGER IF EXISTS economy_transaction_balanced ON economy_transaction;
DROP TRIGGER IF EXISTS economy_entry_balanced ON economy_entry;
DROP FUNCTION IF EXISTS economy_transaction_balanced();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BALANCED, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("economy", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
