"""Hand reviews in the product: steps from the log, one review per hand, the
task, who may read it and when, the pages, the deeper review, the links."""

from __future__ import annotations

import random
import threading

import pytest
from django.core.cache import cache
from django.db import connection

from games import engine
from games.models import HandReview, Table
from games.review.hand import Budget
from games.reviews import services
from games.reviews.services import review_deeper, review_request, review_run
from games.reviews.steps import hand_steps, hands_finished
from games.services import table_practice_create
from tests.support.tables import drive, two_human_table

TINY = Budget(samples=2, max_nodes=300, face_up_nodes=1_000, luck_nodes=1_000)


@pytest.fixture
def sent(monkeypatch):
    """Record the review tasks sent (after commit) instead of using a broker."""
    calls: list[tuple[str, tuple, str]] = []

    class App:
        def send_task(self, name, args=(), queue=None, **kw):
            calls.append((name, tuple(args), queue))

    monkeypatch.setattr(services, "current_app", App())
    return calls


@pytest.fixture
def tiny(monkeypatch):
    """Reviews at a tiny budget: these tests check the wiring, not the analysis."""
    monkeypatch.setattr(services, "budget_for", lambda options, deep=False: TINY)


def finished_practice(user, *, variant="all_fives", seed=1):
    table = table_practice_create(
        user=user,
        variant=variant,
        options={"target": 50},
        bot_levels=["easy"],
        bot_speed="instant",
    )
    return drive(table.pk, {0: user}, rng=random.Random(seed))


def test_a_hands_steps_replay_its_log(make_user, queued):
    owner = make_user()
    table = finished_practice(owner)
    assert hands_finished(table=table) >= 1
    hs = hand_steps(table=table, hand=1)
    assert hs.finished and hs.steps
    assert hs.seqs == sorted(hs.seqs) and len(hs.seqs) == len(hs.steps)
    assert all(st.hand_no == 1 for st, _, _ in hs.steps)
    last_state, seat, action = hs.steps[-1]
    after = engine.apply(last_state, seat, action)
    assert after.phase in ("hand_over", "match_over")
    # Each step follows from the one before (one deal, in order).
    for (a, s, act), (b, _, _) in zip(hs.steps, hs.steps[1:], strict=False):
        assert engine.apply(a, s, act) == b
    beyond = hand_steps(table=table, hand=hands_finished(table=table) + 1)
    assert not beyond.finished


def test_one_review_per_hand_and_the_task_runs_it_once(
    make_user, queued, sent, tiny, django_capture_on_commit_callbacks
):
    owner = make_user()
    table = finished_practice(owner)
    with django_capture_on_commit_callbacks(execute=True):
        first = review_request(table=table, hand=1, user=owner)
        again = review_request(table=table, hand=1, user=owner)
    assert first.pk == again.pk
    assert HandReview.objects.filter(table=table).count() == 1
    assert sent == [("games.review_hand", (first.pk,), services.settings.REVIEW_QUEUE)]
    assert review_run(review_id=first.pk) is True
    row = HandReview.objects.get(pk=first.pk)
    assert row.status == HandReview.Status.DONE and row.progress == 100
    assert row.result["decisions"] and row.result["face_up"]
    assert [s["seat"] for s in row.result["seats"]] == [0, 1]
    assert row.result["depth"] == "standard"
    # A second delivery of the same task does nothing.
    assert review_run(review_id=first.pk) is False
    # Done: asking again queues nothing.
    with django_capture_on_commit_callbacks(execute=True):
        review_request(table=table, hand=1, user=owner)
    assert len(sent) == 1


def test_the_task_writes_its_progress(make_user, queued, sent, tiny, monkeypatch):
    owner = make_user()
    table = finished_practice(owner)
    row = review_request(table=table, hand=1, user=owner)
    seen: list[int] = []
    real = services.hand_review_with

    def watched(steps, budget, *, seed, progress):
        def spy(p):
            progress(p)
            seen.append(HandReview.objects.get(pk=row.pk).progress)

        return real(steps, budget, seed=seed, progress=spy)

    monkeypatch.setattr(services, "hand_review_with", watched)
    review_run(review_id=row.pk)
    assert seen and seen == sorted(seen) and seen[0] > 0 and seen[-1] == 99
    assert HandReview.objects.get(pk=row.pk).progress == 100


def test_a_failed_review_says_so(make_user, queued, sent, monkeypatch):
    owner = make_user()
    table = finished_practice(owner)
    row = review_request(table=table, hand=1, user=owner)

    def broken(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(services, "hand_review_with", broken)
    review_run(review_id=row.pk)
    row.refresh_from_db()
    assert row.status == HandReview.Status.FAILED and "boom" in row.error


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_make_one_review(make_user, sent, monkeypatch):
    """Real threads, each with its own connection (PostgreSQL: a true race on
    the unique row)."""
    from games.services import transitions

    monkeypatch.setattr(transitions, "tick_job", lambda *a: None)
    owner = make_user()
    table = finished_practice(owner)
    if connection.vendor == "sqlite":
        # SQLite's test database is one in-memory connection: threads share it.
        pytest.skip("needs a database with a connection per thread")
    barrier = threading.Barrier(2)
    ids: list[int] = []
    errors: list[BaseException] = []

    def ask():
        try:
            barrier.wait()
            ids.append(review_request(table=table, hand=1, user=owner).pk)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(set(ids)) == 1
    assert HandReview.objects.filter(table=table).count() == 1
    assert len(sent) == 1


def test_a_review_run_twice_at_once_runs_once(make_user, queued, sent, tiny):
    """The row moves from queued to running once: a later delivery sees it taken."""
    owner = make_user()
    table = finished_practice(owner)
    row = review_request(table=table, hand=1, user=owner)
    HandReview.objects.filter(pk=row.pk).update(status=HandReview.Status.RUNNING)
    assert review_run(review_id=row.pk) is False
    assert HandReview.objects.get(pk=row.pk).result is None


# --- access -------------------------------------------------------------------


def test_a_live_online_table_refuses_with_a_message(client, make_user, queued):
    # A target no first hand reaches: the match is still on after it.
    table, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE, target=200)

    def one_hand(t):
        return hands_finished(table=Table.objects.get(pk=t.pk)) >= 1

    # Play until a hand is over, the match still on.
    from tests.support.tables import drive as play

    class Stop(Exception):
        pass

    def stop(*_):
        if one_hand(table):
            raise Stop

    with pytest.raises(Stop):
        play(table.pk, {0: ana, 1: ben}, rng=random.Random(3), on_step=stop)
    live = Table.objects.get(pk=table.pk)
    assert live.status == Table.Status.PLAYING
    client.force_login(ana)
    resp = client.get(f"/tables/{table.pk}/review/1/", follow=True)
    assert resp.redirect_chain == [(f"/tables/{table.pk}/", 302)]
    assert "The review of a hand opens when the match has ended." in (
        resp.content.decode()
    )
    assert client.get(f"/tables/{table.pk}/review/1.json").status_code == 404
    assert not HandReview.objects.exists()


def test_practice_reviews_are_their_players(client, make_user, queued, sent):
    owner, stranger = make_user("owner"), make_user("stranger")
    table = finished_practice(owner)
    url = f"/tables/{table.pk}/review/1/"
    assert client.get(url).status_code == 404
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    assert client.get(f"/tables/{table.pk}/review/1.json").status_code == 404
    assert not HandReview.objects.exists()
    client.force_login(owner)
    assert client.get(url).status_code == 200
    assert HandReview.objects.filter(table=table, hand=1).count() == 1
    # A hand not played to its end has no review.
    past = hands_finished(table=table) + 1
    resp = client.get(f"/tables/{table.pk}/review/{past}/")
    assert resp.status_code == 404


def test_a_live_practice_hand_is_reviewable_by_its_player(
    client, make_user, queued, sent
):
    owner = make_user("owner")
    table = table_practice_create(
        user=owner,
        variant="block",
        options={"target": 200},
        bot_levels=["easy"],
        bot_speed="instant",
    )

    class Stop(Exception):
        pass

    def stop(*_):
        if hands_finished(table=Table.objects.get(pk=table.pk)) >= 1:
            raise Stop

    with pytest.raises(Stop):
        drive(table.pk, {0: owner}, rng=random.Random(2), on_step=stop)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    client.force_login(owner)
    assert client.get(f"/tables/{table.pk}/review/1/").status_code == 200
    assert client.get(f"/tables/{table.pk}/review/2/").status_code == 404


def test_a_finished_online_review_is_anyones(client, make_user, queued, sent):
    table, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE, target=50)
    drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3))
    resp = client.get(f"/tables/{table.pk}/review/1/")
    assert resp.status_code == 200


# --- pages ---------------------------------------------------------------------


def test_the_page_while_queued_shows_progress(client, make_user, queued, sent):
    owner = make_user("owner")
    table = finished_practice(owner)
    client.force_login(owner)
    page = client.get(f"/tables/{table.pk}/review/1/").content.decode()
    assert 'id="review-progress"' in page and "Waiting for the worker" in page
    assert "The face-up line knows what no player knew" in page
    assert '"waiting": true' in page
    body = client.get(f"/tables/{table.pk}/review/1.json").json()
    assert body["status"] == "queued" and body["progress"] == 0
    assert "moves" not in body


def test_the_json_before_any_review_queues_nothing(client, make_user, queued, sent):
    owner = make_user("owner")
    table = finished_practice(owner)
    client.force_login(owner)
    body = client.get(f"/tables/{table.pk}/review/1.json").json()
    assert body["status"] == "none"
    assert not HandReview.objects.exists() and not sent


def test_the_page_of_a_done_review(client, make_user, queued, sent, tiny):
    owner = make_user("owner")
    table = finished_practice(owner)
    row = review_request(table=table, hand=1, user=owner)
    review_run(review_id=row.pk)
    row.refresh_from_db()
    # A labelled decision, settled, whatever the tiny budget found.
    data = row.result
    d = data["decisions"][0]
    d["label"], d["loss"], d["exact"], d["match_point"] = "blunder", 25.0, True, False
    HandReview.objects.filter(pk=row.pk).update(result=data)
    client.force_login(owner)
    page = client.get(f"/tables/{table.pk}/review/1/").content.decode()
    assert '"waiting": false' in page
    assert 'aria-live="polite" hidden>' in page  # the progress box is hidden
    assert "Accuracy" in page and "Blunder" in page
    assert "Face-up line" in page and "Perfect play" in page
    assert "Luck" in page and 'class="luck-meter"' in page
    assert "than the table&#x27;s average" in page or "about even" in page
    assert f"/tables/{table.pk}/replay/#seq-{d['seq']}" in page
    assert "Request a deeper review" in page
    assert "2 sampled deals" in page
    body = client.get(f"/tables/{table.pk}/review/1.json").json()
    assert body["status"] == "done" and body["progress"] == 100
    move = next(m for m in body["moves"] if m["seq"] == d["seq"])
    assert move["label"] == "blunder" and move["label_text"] == "Blunder"
    assert move["chosen"]


def test_the_page_in_spanish(client, make_user, queued, sent, tiny):
    owner = make_user("owner")
    table = finished_practice(owner)
    review_run(review_id=review_request(table=table, hand=1, user=owner).pk)
    client.force_login(owner)
    resp = client.get(
        f"/tables/{table.pk}/review/1/", headers={"accept-language": "es"}
    )
    assert resp.status_code == 200 and 'lang="es"' in resp.content.decode()


# --- deeper reviews ------------------------------------------------------------


def test_a_deeper_review_once_per_hand(
    client, make_user, queued, sent, tiny, django_capture_on_commit_callbacks
):
    owner = make_user("owner")
    cache.delete(f"review:deep:{owner.pk}")
    table = finished_practice(owner)
    row = review_request(table=table, hand=1, user=owner)
    review_run(review_id=row.pk)
    client.force_login(owner)
    url = f"/tables/{table.pk}/review/1/deeper/"
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(url, follow=True)
    assert resp.status_code == 200
    row.refresh_from_db()
    assert row.depth == "deep" and row.status == "queued"
    assert row.result is not None  # the standard review stays until replaced
    assert sent[-1][1] == (row.pk,)
    page = resp.content.decode()
    assert "A deeper review is being computed" in page
    review_run(review_id=row.pk)
    row.refresh_from_db()
    assert row.status == "done" and row.result["depth"] == "deep"
    count = len(sent)
    resp = client.post(url, follow=True)
    assert "This hand already has a deeper review." in resp.content.decode()
    assert len(sent) == count


def test_deeper_reviews_are_rate_limited_per_player(
    client, make_user, queued, sent, tiny, settings
):
    settings.REVIEW_DEEP_PER_HOUR = 1
    owner = make_user("owner")
    # The count lives in the cache (Redis outlives a test database).
    cache.delete(f"review:deep:{owner.pk}")
    table = finished_practice(owner, variant="block", seed=4)
    assert hands_finished(table=table) >= 2
    for hand in (1, 2):
        review_run(review_id=review_request(table=table, hand=hand, user=owner).pk)
    review_deeper(table=table, hand=1, user=owner)
    with pytest.raises(services.ReviewRefused) as refused:
        review_deeper(table=table, hand=2, user=owner)
    assert refused.value.code == "review_rate"
    assert "try again later" in refused.value.message
    row = HandReview.objects.get(table=table, hand=2)
    assert row.depth == "standard" and row.status == "done"


def test_only_a_player_asks_for_a_deeper_review(client, make_user, queued, sent, tiny):
    table, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE, target=50)
    drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3))
    review_run(review_id=review_request(table=table, hand=1, user=ana).pk)
    client.force_login(make_user("someone"))
    resp = client.post(f"/tables/{table.pk}/review/1/deeper/", follow=True)
    assert "Only the players of this game" in resp.content.decode()
    assert HandReview.objects.get(table=table, hand=1).depth == "standard"


# --- links ---------------------------------------------------------------------


def test_links_to_reviews(client, make_user, queued):
    owner = make_user("owner")
    table = finished_practice(owner)
    client.force_login(owner)
    review = f"/tables/{table.pk}/review/1/"
    assert review in client.get("/games/").content.decode()
    assert review in client.get(f"/tables/{table.pk}/history/").content.decode()
    assert f'"review": "/tables/{table.pk}/review/"' in (
        client.get(f"/tables/{table.pk}/replay/").content.decode()
    )
    table_page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "data-review" in table_page
    assert f'"review": "/tables/{table.pk}/review/"' in table_page


def test_the_profile_lists_a_review_link(client, make_user, queued):
    from games.my_games import recent_games

    owner = make_user("owner")
    table = finished_practice(owner)
    (row,) = recent_games(player=owner, viewer=owner)
    assert row.review_hand == 1
    from django.template.loader import render_to_string

    html = render_to_string("games/_recent_games.html", {"rows": [row], "own": True})
    assert f"/tables/{table.pk}/review/1/" in html


def test_reviews_go_to_their_own_queue(settings):
    from config.celery import app

    route = app.amqp.router.route({}, "games.review_hand", args=(1,))
    assert route["queue"].name == settings.REVIEW_QUEUE
    assert settings.REVIEW_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    tick = app.amqp.router.route({}, "games.table_tick", args=(1, 1))
    assert tick["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE
