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
from tests.support.tables import finished_practice as played_practice

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
    return played_practice(user, variant=variant, seed=seed)


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

    monkeypatch.setattr(transitions, "tick_job", lambda *a, **k: None)
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


def test_a_finished_online_review_is_anyones_to_read(
    client, make_user, queued, sent, tiny
):
    table, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE, target=50)
    drive(table.pk, {0: ana, 1: ben}, rng=random.Random(3))
    review_run(review_id=review_request(table=table, hand=1, user=ana).pk)
    page = client.get(f"/tables/{table.pk}/review/1/").content.decode()
    assert "Face-up line" in page and "Log in to ask" not in page


# --- who may queue a review -------------------------------------------------------


def _ended_online(make_user, seed=3):
    table, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE, target=100)
    drive(table.pk, {0: ana, 1: ben}, rng=random.Random(seed))
    table = Table.objects.get(pk=table.pk)
    assert table.status == Table.Status.FINISHED and hands_finished(table=table) >= 2
    return table, ana, ben


def test_a_signed_out_visitor_queues_nothing(
    client, make_user, queued, sent, django_capture_on_commit_callbacks
):
    table, ana, _ = _ended_online(make_user)
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.get(f"/tables/{table.pk}/review/1/")
        body = client.get(f"/tables/{table.pk}/review/1.json").json()
    assert resp.status_code == 200
    page = resp.content.decode()
    assert "This hand has not been reviewed yet. Log in to ask for its review." in page
    login = f"/accounts/login/?next=%2Ftables%2F{table.pk}%2Freview%2F1%2F"
    assert login in page
    assert '"waiting": false' in page  # nothing to wait for: no polling
    assert body["status"] == "none"
    assert not HandReview.objects.exists() and sent == []
    # The deeper review's door is for signed-in players only.
    resp = client.post(f"/tables/{table.pk}/review/1/deeper/")
    assert resp.status_code == 302 and "/accounts/login/" in resp["Location"]
    assert not HandReview.objects.exists() and sent == []


def test_a_crawler_walking_ids_starts_no_work(
    client, make_user, queued, sent, django_capture_on_commit_callbacks
):
    table, _, _ = _ended_online(make_user)
    with django_capture_on_commit_callbacks(execute=True):
        for table_id in range(max(1, table.pk - 3), table.pk + 4):
            for hand in range(0, 5):
                client.get(f"/tables/{table_id}/review/{hand}/")
                client.get(f"/tables/{table_id}/review/{hand}.json")
                client.get(f"/tables/{table_id}/replay/")
    assert not HandReview.objects.exists() and sent == []


def test_a_signed_out_visitor_does_not_resend_a_lost_review(
    client, make_user, queued, sent, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    table, ana, _ = _ended_online(make_user)
    row = review_request(table=table, hand=1, user=ana)
    long_ago = timezone.now() - services.QUEUED_LOST - timedelta(minutes=1)
    HandReview.objects.filter(pk=row.pk).update(queued_at=long_ago)
    with django_capture_on_commit_callbacks(execute=True):
        page = client.get(f"/tables/{table.pk}/review/1/").content.decode()
    assert "Waiting for the worker" in page
    assert sent == []
    client.force_login(ana)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/tables/{table.pk}/review/1/")
    assert sent == [("games.review_hand", (row.pk,), services.settings.REVIEW_QUEUE)]


def test_a_practice_share_link_reads_but_never_queues(
    client, make_user, queued, sent, tiny, django_capture_on_commit_callbacks
):
    from games.replays.access import replay_share_token

    owner = make_user("owner")
    table = finished_practice(owner)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CANCELLED)
    table.refresh_from_db()
    token = replay_share_token(table)
    url = f"/tables/{table.pk}/review/1/?share={token}"
    with django_capture_on_commit_callbacks(execute=True):
        page = client.get(url).content.decode()
    assert "Log in to ask for its review." in page
    assert not HandReview.objects.exists() and sent == []
    review_run(review_id=review_request(table=table, hand=1, user=owner).pk)
    assert "Face-up line" in client.get(url).content.decode()


def test_a_player_queues_reviews_up_to_the_hourly_limit(
    client, make_user, queued, sent, settings, django_capture_on_commit_callbacks
):
    settings.REVIEW_REQUESTS_PER_HOUR = 1
    table, ana, ben = _ended_online(make_user)
    for user in (ana, ben):
        cache.delete(f"review:ask:{user.pk}")
    client.force_login(ana)
    with django_capture_on_commit_callbacks(execute=True):
        first = client.get(f"/tables/{table.pk}/review/1/").content.decode()
        # Reading what is queued already costs nothing.
        again = client.get(f"/tables/{table.pk}/review/1/").content.decode()
        over = client.get(f"/tables/{table.pk}/review/2/").content.decode()
    assert "Waiting for the worker" in first and "Waiting for the worker" in again
    assert "you have asked for many reviews this hour; try again later." in over
    assert '"waiting": false' in over
    assert list(HandReview.objects.values_list("hand", flat=True)) == [1]
    assert len(sent) == 1
    # The limit is each player's own.
    client.force_login(ben)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/tables/{table.pk}/review/2/")
    assert sorted(HandReview.objects.values_list("hand", flat=True)) == [1, 2]
    assert len(sent) == 2


@pytest.mark.django_db(transaction=True)
def test_requests_at_once_never_pass_the_limit(make_user, sent, monkeypatch, settings):
    """Real threads asking for different hands at once, one request left in the
    hour: one review is queued (PostgreSQL and Redis: a true race)."""
    from games.services import transitions

    if connection.vendor == "sqlite":
        pytest.skip("needs a database with a connection per thread")
    monkeypatch.setattr(transitions, "tick_job", lambda *a, **k: None)
    settings.REVIEW_REQUESTS_PER_HOUR = 1
    owner = make_user()
    cache.delete(f"review:ask:{owner.pk}")
    table = finished_practice(owner, variant="block", seed=4)
    hands = hands_finished(table=table)
    assert hands >= 2
    barrier = threading.Barrier(hands)
    queued_ids: list[int] = []
    refused: list[str] = []
    errors: list[BaseException] = []

    def ask(hand):
        try:
            barrier.wait()
            queued_ids.append(review_request(table=table, hand=hand, user=owner).pk)
        except services.ReviewRefused as refusal:
            refused.append(refusal.code)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=ask, args=(hand,)) for hand in range(1, hands + 1)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(queued_ids) == 1 and refused == ["review_request_rate"] * (hands - 1)
    assert HandReview.objects.filter(table=table).count() == 1
    assert len(sent) == 1


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
    d["scale"] = "points"
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


# --- verdicts: only judged decisions (real positions, tests/review/cases.py) -------


def _stored(table, review, options):
    """``review`` stored as hand 1's done review of ``table``."""
    from games.review.export import review_to_json

    data = review_to_json(review, options)
    data["depth"] = HandReview.Depth.STANDARD
    return HandReview.objects.create(
        table=table, hand=1, status=HandReview.Status.DONE, progress=100, result=data
    )


def _options():
    return engine.options_for("all_fives", seats=2)


def _summary(page):
    start = page.index('class="review-seats"')
    return page[start : page.index("</section>", start)]


def _match_point_stored(table):
    """The All Fives match-point blunder (``tests.review.cases``) stored as
    ``table``'s review of hand 1: (its decision's review, the row)."""
    from tests.review.cases import (
        SCORES_NOTHING,
        match_point_blunder,
        match_point_position,
        one_step_review,
    )

    rev = match_point_blunder()
    review = one_step_review(match_point_position(), SCORES_NOTHING, rev)
    return rev, _stored(table, review, _options())


def test_a_match_point_blunder_is_judged_by_the_match(client, make_user, queued, sent):
    """All Fives to 100, the hand can decide the match: 4–5 for nothing where it
    scored 10 and the match is labelled by the drop in the chance of winning the
    match, shown in percent, and counts in the accuracy."""
    owner = make_user("owner")
    table = finished_practice(owner)
    rev, _ = _match_point_stored(table)
    client.force_login(owner)
    page = client.get(f"/tables/{table.pk}/review/1/").content.decode()
    summary = _summary(page)
    assert "Accuracy 0 % · 1 of 1 decision judged" in summary
    lost = round(100 * rev.loss)
    assert f"{lost} % less chance of winning the match" in summary
    assert "match point: valued by the chance of winning the match" in page
    assert "valued, not judged" not in page
    assert "Chance of winning the match" in page and "100 %" in page
    assert f"Better: play 4–5 on the left ({lost} % more chance" in page
    assert f'class="label label-{rev.label}"' in page
    body = client.get(f"/tables/{table.pk}/review/1.json").json()
    (move,) = body["moves"]
    assert move["judged"] is True and move["match_point"] is True
    assert move["chance"] is True and move["label"] == rev.label
    assert move["loss_text"] == f"{lost} %"
    assert move["best"] == "play 4–5 on the left"


def test_a_match_point_of_an_older_review_stays_unjudged(
    client, make_user, queued, sent
):
    """A review stored in the older format valued match points in points: it
    reads as it did, valued, with no verdict and no accuracy."""
    owner = make_user("owner")
    table = finished_practice(owner)
    _, row = _match_point_stored(table)
    data = row.result
    data["version"] = 2
    for d in data["decisions"]:
        del d["scale"]
        d["label"] = "blunder"  # a label stored on it is no verdict either
    HandReview.objects.filter(pk=row.pk).update(result=data)
    client.force_login(owner)
    page = client.get(f"/tables/{table.pk}/review/1/").content.decode()
    assert "No accuracy: its 1 decision could not be judged." in _summary(page)
    assert "match point: valued, not judged" in page
    assert "Better:" not in page and "<strong>best</strong>" not in page
    assert 'class="label label-' not in page.replace("label-changed", "")
    (move,) = client.get(f"/tables/{table.pk}/review/1.json").json()["moves"]
    assert move["judged"] is False and move["chance"] is False
    assert move["label"] is None and move["best"] is None


def test_a_depth_limited_opening_is_never_called_best(client, make_user, queued, sent):
    """All Fives to 50: 1–1 opened for nothing where 5–5 scored 10. The search
    guessed 1–1 first; the page says it could not settle the decision."""
    from tests.review.cases import (
        OPEN_1_1,
        one_step_review,
        opening_decision,
        opening_position,
    )

    owner = make_user("owner")
    table = finished_practice(owner)
    rev = opening_decision(OPEN_1_1)
    assert rev.best == rev.chosen  # the guess rates the chosen 1–1 first
    review = one_step_review(opening_position(), OPEN_1_1, rev)
    _stored(table, review, engine.options_for("all_fives", seats=2, target=50))
    client.force_login(owner)
    page = client.get(f"/tables/{table.pk}/review/1/").content.decode()
    assert "Not settled: the search ran out of its budget." in page
    assert "Not settled: for some decisions the search ran out of its budget" in page
    assert "<strong>best</strong>" not in page and "Better:" not in page
    assert "depth limited (" not in page
    assert "Accuracy" not in _summary(page)
    # The face-up step is a depth-limited estimate too: no "changed", no best.
    assert not review.face_up[0].before.exact
    assert "Changed the result" not in page and "depth-limited estimate" in page
    body = client.get(f"/tables/{table.pk}/review/1.json").json()
    (move,) = body["moves"]
    assert move["settled"] is False and move["judged"] is False
    assert move["best"] is None and move["best_is_chosen"] is False


def _mixed_review():
    """The match-point 4–5 (judged by the match), the same 4–5 at 0–0 (judged:
    an inaccuracy) and a depth-limited opening (not judged), all seat 0's."""
    from games.review.hand import HandReview as Review
    from tests.review.cases import (
        OPEN_0_3,
        SCORES_NOTHING,
        early_blunder,
        match_point_blunder,
        match_point_position,
        one_step_review,
        opening_decision,
    )

    point = one_step_review(
        match_point_position(), SCORES_NOTHING, match_point_blunder()
    )
    return Review(
        decisions=(
            (0, match_point_blunder()),
            (1, early_blunder()),
            (2, opening_decision(OPEN_0_3)),
        ),
        face_up=point.face_up,
        luck=point.luck,
    )


def test_accuracy_says_how_many_decisions_were_judged(client, make_user, queued, sent):
    from tests.review.cases import early_blunder

    owner = make_user("owner")
    table = finished_practice(owner)
    _stored(table, _mixed_review(), _options())
    client.force_login(owner)
    page = client.get(f"/tables/{table.pk}/review/1/").content.decode()
    summary = _summary(page)
    assert "Accuracy 0 % · 2 of 3 decisions judged" in summary
    assert early_blunder().label == "inaccuracy"
    assert summary.count('class="label label-inaccuracy"') == 1
    assert "match point: valued by the chance of winning the match" in page
    assert "Not settled: the search ran out of its budget." in page
    assert page.count("<strong>best</strong>") == 2  # the judged ones' only


def test_the_review_writes_numbers_in_italian(client, make_user, queued, sent):
    """Every number in the reader's locale: "−19,1" in Italian, "−19.1" in
    English, with one minus sign."""
    from tests.review.cases import early_blunder

    owner = make_user("owner")
    table = finished_practice(owner)
    _stored(table, _mixed_review(), _options())
    client.force_login(owner)
    url = f"/tables/{table.pk}/review/1/"
    rev = early_blunder()
    loss = f"{rev.loss + 1e-9:.1f}"  # 19.0625 → 19.1, half away from zero
    values = [f"{abs(o.value) + 1e-9:.1f}" for o in rev.options]
    italian = client.get(url, headers={"accept-language": "it"}).content.decode()
    assert 'lang="it"' in italian
    assert f"\u2212{loss.replace('.', ',')}" in italian  # the biggest mistakes
    for value in values:
        assert f"\u2212{value.replace('.', ',')}" in italian  # the options
        assert f"\u2212{value}" not in italian
    assert "-" + values[0].replace(".", ",") not in italian  # never a hyphen
    english = client.get(url, headers={"accept-language": "en"}).content.decode()
    assert f"\u2212{loss}" in english
    for value in values:
        assert f"\u2212{value}" in english
