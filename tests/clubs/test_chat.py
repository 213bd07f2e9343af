"""A club's chat: members only, phrases and typed lines to the members online (the
sender's own pages always), the word filter, blocks, the history a page shows,
reports; bad frames refused in words with nothing kept or sent."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.presence import presence_connect
from clubs import chat, services
from clubs.errors import ClubError
from clubs.models import ClubLine, ClubLineReport
from matchmaking.pools.conduct import block_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    out = []
    monkeypatch.setattr(chat.outbox, "notify", lambda batch: out.extend(batch))
    return out


@pytest.fixture
def club(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    made = services.club_create(
        user=ana, name="Harbour", description="", language="en", open=True
    )
    for user in (ben, cy):
        services.club_join(user=user, slug=made.slug)
    return made, ana, ben, cy


def groups(sent):
    return sorted(group for group, _message in sent)


def say(user, club_id, **kwargs):
    return chat.club_chat_send(
        user_id=user.pk, name=user.username, club_id=club_id, **kwargs
    )


def test_a_line_reaches_the_members_online_and_the_sender(club, sent):
    made, ana, ben, cy = club
    presence_connect(user_id=ben.pk, channel_name="ben-page")
    line = say(ana, made.pk, text="  see   you at eight ")
    assert groups(sent) == sorted([f"user.{ana.pk}", f"user.{ben.pk}"])
    frame = {
        "type": "club_chat",
        "club": made.pk,
        "from": "ana",
        "line": line.pk,
        "text": "see you at eight",
    }
    assert all(m == {"type": "user.push", "frame": frame} for _, m in sent)
    assert ClubLine.objects.get().text == "see you at eight"


def test_a_phrase_goes_as_its_key(club, sent):
    made, ana, ben, cy = club
    say(ben, made.pk, phrase="good_luck")
    assert sent[0][1]["frame"]["phrase"] == "good_luck"
    assert "text" not in sent[0][1]["frame"]


def test_the_word_filter_masks_what_readers_see(club, sent):
    made, ana, ben, cy = club
    line = say(ana, made.pk, text="you sh1t")
    assert sent[0][1]["frame"]["text"] == "you ****"
    assert line.normal == "you sh1t"  # kept as typed, folded, for the staff


def test_bad_lines_are_refused_and_nothing_is_kept_or_sent(club, sent, make_user):
    made, ana, ben, cy = club
    eve = make_user("eve")
    cases = [
        ("bad_frame", ana, {"club_id": "1"}, {"phrase": "thanks"}),
        ("bad_frame", ana, {"club_id": True}, {"phrase": "thanks"}),
        ("not_member", eve, {"club_id": made.pk}, {"phrase": "thanks"}),
        ("not_member", ana, {"club_id": 999999}, {"phrase": "thanks"}),
        ("bad_phrase", ana, {"club_id": made.pk}, {"phrase": "<b>hi</b>"}),
        ("empty", ana, {"club_id": made.pk}, {"text": "   "}),
        ("empty", ana, {"club_id": made.pk}, {"text": ["a list"]}),
        ("too_long", ana, {"club_id": made.pk}, {"text": "x" * 201}),
    ]
    for code, user, where, said in cases:
        with pytest.raises(ClubError) as err:
            chat.club_chat_send(user_id=user.pk, name=user.username, **where, **said)
        assert err.value.code == code, (code, err.value.code)
        assert err.value.message and "ClubError" not in err.value.message
    assert not ClubLine.objects.exists() and not sent


def test_the_socket_handler_answers_a_refusal_in_words(club, sent):
    made, ana, ben, cy = club
    answer = chat.club_chat_frame(ana.pk, "ana", {"type": "club_chat", "club": "x"})
    assert answer == {
        "type": "error",
        "code": "bad_frame",
        "message": "Say which club the message is for.",
    }
    assert (
        chat.club_chat_frame(ana.pk, "ana", {"club": made.pk, "phrase": "oops"}) is None
    )


def test_the_shared_rate_limit_holds(club, sent, settings):
    made, ana, ben, cy = club
    for _ in range(5):
        say(ana, made.pk, phrase="thanks")
    with pytest.raises(ClubError) as err:
        say(ana, made.pk, phrase="thanks")
    assert err.value.code == "rate"
    assert ClubLine.objects.count() == 5


def test_who_blocked_the_sender_is_not_sent_nor_shown_their_lines(club, sent):
    made, ana, ben, cy = club
    block_add(blocker_id=ben.pk, blocked_username="ana")
    presence_connect(user_id=ben.pk, channel_name="ben-page")
    presence_connect(user_id=cy.pk, channel_name="cy-page")
    say(ana, made.pk, text="hello")
    say(cy, made.pk, text="hi ana")
    assert f"user.{ben.pk}" not in groups(sent[:2])
    history = chat.club_chat_history(club_id=made.pk, reader_id=ben.pk)
    assert [f["from"] for f in history] == ["cy"]
    assert [
        f["from"] for f in chat.club_chat_history(club_id=made.pk, reader_id=cy.pk)
    ] == [
        "ana",
        "cy",
    ]


def test_the_history_keeps_the_last_lines_oldest_first(club, sent, monkeypatch):
    made, ana, ben, cy = club
    monkeypatch.setattr(chat, "chat_rate", lambda user_id: None)
    for n in range(chat.HISTORY + 3):
        say(ana, made.pk, text=f"line {n}")
    history = chat.club_chat_history(club_id=made.pk, reader_id=ben.pk)
    assert len(history) == chat.HISTORY
    assert (
        history[0]["text"] == "line 3"
        and history[-1]["text"] == f"line {chat.HISTORY + 2}"
    )


def test_members_report_others_lines_once(club, sent, client, make_user):
    made, ana, ben, cy = club
    line = say(ana, made.pk, text="meet me outside")
    url = reverse("club-line-report", args=[line.pk])
    client.force_login(ana)
    assert client.post(url).status_code == 400  # one's own line
    client.force_login(make_user("eve"))
    reply = client.post(url)
    assert reply.status_code == 400
    assert reply.json()["message"] == "There is no such message to report."
    client.force_login(ben)
    assert client.post(url).status_code == 200
    assert client.post(url).status_code == 200
    assert ClubLineReport.objects.filter(line=line).count() == 1
