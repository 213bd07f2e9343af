"""The ledger's core: account look-ups, row locks and posting a balanced transaction.

Lock order (the only one used anywhere, so two transactions never deadlock): escrow
accounts first, then wallets, each group in primary-key order. The mint and the shop
are never locked: they keep no denormalised balance, so they are not hot rows.

The hot paths (an entry fee, a pot's payout) are written in a few plain SQL statements
rather than ORM calls: each service is a handful of round trips (lock, check, three
writes) and little Python, which is what the ledger benchmark measures.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from dbtools.prepared import prepared_cursor
from economy.errors import (
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidInput,
    UnknownUser,
)
from economy.models import Account, Entry, Transaction

Leg = tuple[Account, int]


def wallet_key(user_id: int) -> str:
    return f"wallet:{user_id}"


def escrow_key(table_ref: str) -> str:
    return f"pot:{table_ref}"


def fingerprint_of(data: dict[str, Any]) -> str:
    """A stable digest of what a request asked for (compared on key reuse)."""
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def check_table_ref(table_ref: str) -> None:
    if not isinstance(table_ref, str) or not table_ref or len(table_ref) > 64:
        raise InvalidInput("table_ref must be a non-empty string of at most 64 chars")
    if ":" in table_ref:
        raise InvalidInput("table_ref may not contain ':' (it is part of ledger keys)")


def check_user_id(user_id: object) -> int:
    if type(user_id) is not int or user_id <= 0:
        raise UnknownUser(f"not a user id: {user_id!r}")
    return user_id


def check_amount(amount: object) -> int:
    if type(amount) is not int or amount <= 0:
        raise InvalidAmount(f"amount must be a positive whole number, not {amount!r}")
    return amount


def system_account(*, kind: str) -> Account:
    """The mint or the shop (created on first use)."""
    if kind not in (Account.Kind.MINT, Account.Kind.SHOP):
        raise InvalidInput(f"not a system account: {kind!r}")
    account, _ = Account.objects.get_or_create(
        key=str(kind), defaults={"kind": kind, "balance": None}
    )
    return account


def wallets_ensure(*, user_ids: Iterable[int]) -> dict[int, int]:
    """Return ``{user_id: wallet account id}``, creating missing wallets (balance 0).

    Raises :class:`UnknownUser` if any user does not exist.
    """
    wanted = {check_user_id(uid) for uid in user_ids}
    found = dict(
        Account.objects.filter(
            kind=Account.Kind.WALLET, user_id__in=wanted
        ).values_list("user_id", "pk")
    )
    missing = wanted - found.keys()
    if missing:
        existing = set(
            get_user_model().objects.filter(pk__in=missing).values_list("pk", flat=True)
        )
        if unknown := sorted(missing - existing):
            raise UnknownUser(f"unknown user id(s): {unknown}")
        for uid in sorted(missing):
            account, _ = Account.objects.get_or_create(
                key=wallet_key(uid),
                defaults={"kind": Account.Kind.WALLET, "user_id": uid, "balance": 0},
            )
            found[uid] = account.pk
    return found


# Table names from the models; the SQL below is built from them and from ``%s``
# placeholders only, never from input.
ACCOUNTS, TRANSACTIONS, ENTRIES = (
    Account._meta.db_table,
    Transaction._meta.db_table,
    Entry._meta.db_table,
)
# Every column but ``created_at`` (deferred: a raw cursor would not convert it).
_ACCOUNT_COLUMNS = (
    "id",
    "key",
    "kind",
    "user_id",
    "table_ref",
    "state",
    "entry_fee",
    "balance",
)


def _marks(count: int, mark: str = "%s") -> str:
    return ", ".join([mark] * count)


def _accounts_locked(condition: str, params: Sequence[Any]) -> list[Account]:
    """Lock the wallets and escrows matching ``condition`` (SQL), in lock order.

    One ``SELECT … ORDER BY … FOR UPDATE``: PostgreSQL locks the rows as they leave
    the sort, so escrows first, then wallets, each by primary key. SQLite has no row
    locks; its write transactions (``IMMEDIATE``) are serial anyway.
    """
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    sql = (
        f"SELECT {', '.join(_ACCOUNT_COLUMNS)} FROM {ACCOUNTS} "  # noqa: S608
        f"WHERE kind IN ('escrow', 'wallet') AND ({condition}) "
        f"ORDER BY CASE kind WHEN 'escrow' THEN 0 ELSE 1 END, id{lock}"
    )
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [Account.from_db(connection.alias, _ACCOUNT_COLUMNS, row) for row in rows]


def accounts_lock(*, account_ids: Iterable[int]) -> dict[int, Account]:
    """Lock wallet and escrow rows (escrows first, then wallets, by pk); return them.

    Precondition: called inside ``transaction.atomic``. A caller that already holds
    escrow locks may lock wallets next, never the other way round.
    """
    ids = sorted(set(account_ids))
    if not ids:
        return {}
    rows = _accounts_locked(f"id IN ({_marks(len(ids))})", ids)
    return {account.pk: account for account in rows}


def escrow_wallets_lock(
    *, table_ref: str, user_ids: Sequence[int]
) -> tuple[Account | None, dict[int, Account]]:
    """Lock a pot's escrow and players' wallets in one query: ``(escrow, wallets)``.

    ``wallets`` maps user id to wallet; a player without a wallet is absent. If the
    escrow does not exist, nothing at all is locked and ``(None, {})`` is returned:
    a caller about to create the escrow then holds no wallet lock (escrows first).
    Precondition: called inside ``transaction.atomic``.
    """
    key = escrow_key(table_ref)
    users = list(user_ids)
    condition = (
        f"key = %s OR (kind = 'wallet' AND user_id IN ({_marks(len(users))}) "  # noqa: S608
        f"AND EXISTS (SELECT 1 FROM {ACCOUNTS} e WHERE e.key = %s))"
    )
    rows = _accounts_locked(condition, [key, *users, key])
    escrow = next((a for a in rows if a.kind == Account.Kind.ESCROW), None)
    wallets = {
        a.user_id: a
        for a in rows
        if a.kind == Account.Kind.WALLET and a.user_id is not None
    }
    return escrow, wallets


def escrow_ensure(*, table_ref: str) -> None:
    """Create the table's escrow (open, empty) unless it exists; lock nothing.

    ``INSERT … ON CONFLICT DO NOTHING``: a concurrent creator makes this wait for its
    commit, then do nothing, so a table has one escrow.
    """
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with prepared_cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {ACCOUNTS} "  # noqa: S608
            "(key, kind, table_ref, state, balance, created_at) "
            "VALUES (%s, %s, %s, %s, 0, %s) ON CONFLICT (key) DO NOTHING",
            [escrow_key(table_ref), "escrow", table_ref, "open", now],
        )


def transaction_existing(*, key: str, fingerprint: str) -> Transaction | None:
    """The transaction already posted under ``key``, if its content matches.

    Raises :class:`IdempotencyConflict` when the key was used for other content.
    """
    posted = Transaction.objects.filter(key=key).first()
    if posted is not None and posted.fingerprint != fingerprint:
        raise IdempotencyConflict(
            f"idempotency key {key!r} was already used for different content"
        )
    return posted


_ESCROW_SETTABLE = ("state", "entry_fee")


def _legs_check(legs: Sequence[Leg]) -> None:
    """Raise unless the legs are non-zero whole amounts on distinct accounts that
    sum to zero and leave no tracked balance negative."""
    if len(legs) < 2:
        raise InvalidInput("a transaction needs at least two entries")
    seen: set[int] = set()
    for account, amount in legs:
        if type(amount) is not int or amount == 0:
            raise InvalidAmount(f"an entry must be a non-zero whole number: {amount!r}")
        if account.pk in seen:
            raise InvalidInput(f"account {account.key} appears twice")
        seen.add(account.pk)
    if sum(amount for _, amount in legs) != 0:
        raise InvalidInput("the entries of a transaction must sum to zero")
    for account, amount in legs:
        if account.balance is not None and account.balance + amount < 0:
            raise InsufficientFunds(
                f"{account.key} holds {account.balance} coins, {-amount} needed"
            )


def _escrow_of(legs: Sequence[Leg], escrow_set: dict[str, object]) -> Account:
    """The one escrow of ``legs``, which ``escrow_set`` writes to."""
    if unknown := set(escrow_set) - set(_ESCROW_SETTABLE):
        raise InvalidInput(f"cannot set {sorted(unknown)} on an escrow")
    escrows = [a for a, _ in legs if a.kind == Account.Kind.ESCROW]
    if len(escrows) != 1:
        raise InvalidInput("escrow_set needs exactly one escrow in the legs")
    return escrows[0]


def _post_one_statement(
    cursor: Any,
    fields: dict[str, Any],
    legs: Sequence[Leg],
    moves: tuple[str, list[Any]],
) -> int | None:
    """PostgreSQL: the transaction, its entries and the balances in one statement
    (data-modifying CTEs), one round trip instead of three. The entries and the
    balances follow only a transaction row actually inserted: a taken key writes
    nothing and returns None."""
    moves_sql, moves_params = moves
    cursor.execute(
        f"WITH tx AS (INSERT INTO {TRANSACTIONS} ({', '.join(fields)}) "  # noqa: S608
        f"VALUES ({_marks(len(fields))}) ON CONFLICT (key) DO NOTHING RETURNING id), "
        f"legs AS (INSERT INTO {ENTRIES} (transaction_id, account_id, amount) "
        "SELECT tx.id, v.account_id, v.amount FROM tx, "
        f"(VALUES {_marks(len(legs), '(%s, %s)')}) AS v (account_id, amount)), "
        f"moved AS ({moves_sql} AND EXISTS (SELECT 1 FROM tx)) "
        "SELECT id FROM tx",
        [
            *fields.values(),
            *[value for a, amount in legs for value in (a.pk, amount)],
            *moves_params,
        ],
    )
    row = cursor.fetchone()
    return None if row is None else int(row[0])


def _post_three_statements(
    cursor: Any,
    fields: dict[str, Any],
    legs: Sequence[Leg],
    moves: tuple[str, list[Any]] | None,
) -> int | None:
    """The transaction (``INSERT … ON CONFLICT DO NOTHING RETURNING``, so a key
    taken concurrently is a clear error without a savepoint), its entries, then the
    balances if any move: where data-modifying CTEs are missing (SQLite)."""
    cursor.execute(
        f"INSERT INTO {TRANSACTIONS} ({', '.join(fields)}) "  # noqa: S608
        f"VALUES ({_marks(len(fields))}) "
        "ON CONFLICT (key) DO NOTHING RETURNING id",
        list(fields.values()),
    )
    row = cursor.fetchone()
    if row is None:
        return None
    tx_id = int(row[0])
    cursor.execute(
        f"INSERT INTO {ENTRIES} (transaction_id, account_id, amount) "  # noqa: S608
        f"VALUES {_marks(len(legs), '(%s, %s, %s)')}",
        [value for a, amount in legs for value in (tx_id, a.pk, amount)],
    )
    if moves is not None:
        cursor.execute(*moves)
    return tx_id


def _moves(
    tracked: Sequence[tuple[Account, int | None, int]],
    escrow_changes: Sequence[tuple[Account, str, object]],
) -> tuple[str, list[Any]] | None:
    """The UPDATE moving each tracked balance by its entry (not set from Python),
    with the escrow's other changes; None if no leg has a tracked balance."""
    if not tracked:
        return None
    cases = " ".join(["WHEN %s THEN %s"] * len(tracked))
    sets = [f"balance = balance + CASE id {cases} END"]
    params: list[Any] = [v for a, _, amount in tracked for v in (a.pk, amount)]
    for target, name, value in escrow_changes:
        sets.append(f"{name} = CASE WHEN id = %s THEN %s ELSE {name} END")
        params += [target.pk, value]
    ids = [a.pk for a, _, _ in tracked]
    sql = (
        f"UPDATE {ACCOUNTS} SET {', '.join(sets)} "  # noqa: S608
        f"WHERE id IN ({_marks(len(ids))})"
    )
    return sql, [*params, *ids]


def ledger_post(
    *,
    key: str,
    kind: str,
    legs: Sequence[Leg],
    fingerprint: str,
    table_ref: str = "",
    memo: str = "",
    reason: str = "",
    operator_id: int | None = None,
    escrow_set: dict[str, object] | None = None,
) -> Transaction:
    """Post one balanced transaction and move the balances of its accounts.

    Preconditions: inside ``transaction.atomic``; every wallet and escrow in ``legs``
    was locked by :func:`accounts_lock` (or :func:`escrow_wallets_lock`) in this
    transaction (so ``balance`` is current); the caller checked ``key`` with
    :func:`transaction_existing`, or handles :class:`IdempotencyConflict`.
    ``escrow_set`` (``state``, ``entry_fee``) is written to the one escrow of
    ``legs`` in the same UPDATE as the balances (a pot closing, a first entry).
    Raises before writing anything if the legs do not sum to zero, an amount is not a
    non-zero whole number, an account appears twice, a balance would go negative, or
    ``key`` is already taken (:class:`IdempotencyConflict`).

    One statement on PostgreSQL, three elsewhere: the transaction (``INSERT … ON
    CONFLICT DO NOTHING RETURNING``, so a key taken concurrently is a clear error
    without a savepoint), its entries and the balances (each moved by its entry).
    """
    if not key or len(key) > 200:
        raise InvalidInput("a transaction needs a key of 1 to 200 characters")
    _legs_check(legs)
    escrow_changes: list[tuple[Account, str, object]] = []
    if escrow_set:
        escrow = _escrow_of(legs, escrow_set)
        escrow_changes = [(escrow, name, value) for name, value in escrow_set.items()]
    created_at = timezone.now()
    fields = {
        "key": key,
        "kind": str(kind),
        "table_ref": table_ref,
        "fingerprint": fingerprint,
        "memo": memo,
        "reason": reason,
        "operator_id": operator_id,
        "created_at": connection.ops.adapt_datetimefield_value(created_at),
    }
    tracked = [(a, a.balance, amount) for a, amount in legs if a.balance is not None]
    moves = _moves(tracked, escrow_changes)
    with prepared_cursor() as cursor:
        if moves is not None and connection.vendor == "postgresql":
            tx_id = _post_one_statement(cursor, fields, legs, moves)
        else:
            tx_id = _post_three_statements(cursor, fields, legs, moves)
    if tx_id is None:
        raise IdempotencyConflict(f"idempotency key {key!r} is already used")
    for account, balance, amount in tracked:
        account.balance = balance + amount
    for target, name, value in escrow_changes:
        setattr(target, name, value)
    values = {**fields, "id": tx_id, "created_at": created_at}
    names = [f.attname for f in Transaction._meta.concrete_fields]
    return Transaction.from_db(connection.alias, names, [values[n] for n in names])
