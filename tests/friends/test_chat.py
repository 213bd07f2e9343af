"""Quick chat: phrases to everyone seated, typed lines only between friends in a
friend room, the word filter in every language, limits, reports."""

from __future__ import annotations

import pytest

from chat import services
from chat.errors import ChatError
from chat.models import ChatLine, ChatReport
from chat.words import text_clean
from friends import services as friends
from games.models import Table
from tests.support.tables import two_human_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    out = []
    monkeypatch.setattr(services.outbox, "notify", lambda batch: out.extend(batch))
    return out


def befriend(a, b):
    friends.friend_request_accept(
        request_id=friends.friend_request_send(sender=a, username=b.username).pk, user=b
    )


def refused(code, **kw):
    before = (ChatLine.objects.count(), ChatReport.objects.count())
    with pytest.raises(ChatError) as err:
        services.chat_send(**kw)
    assert err.value.code == code and err.value.message
    assert (ChatLine.objects.count(), ChatReport.objects.count()) == before
    return err.value


def test_a_phrase_reaches_everyone_seated_as_an_id(make_user, sent):
    table, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE)
    services.chat_send(
        user_id=ana.pk, name="ana", table_id=table.pk, phrase="well_played"
    )
    frame = {"type": "chat", "table": table.pk, "from": "ana", "phrase": "well_played"}
    assert sorted(g for g, _ in sent) == sorted([f"user.{ana.pk}", f"user.{ben.pk}"])
    assert all(m == {"type": "user.push", "frame": frame} for _, m in sent)


def test_bad_chat_is_refused_and_sends_nothing(make_user, sent, settings):
    table, ana, ben = two_human_table(make_user, mode=Table.Mode.ONLINE)
    eve = make_user("eve")
    refused("bad_frame", user_id=ana.pk, name="ana", table_id="1", phrase="thanks")
    refused("bad_frame", user_id=ana.pk, name="ana", table_id=True, phrase="thanks")
    refused(
        "not_seated", user_id=eve.pk, name="eve", table_id=table.pk, phrase="thanks"
    )
    refused("not_seated", user_id=ana.pk, name="ana", table_id=999999, phrase="thanks")
    refused("bad_phrase", user_id=ana.pk, name="ana", table_id=table.pk, phrase="<b>")
    # No typed text with strangers, nor at an online table even between friends.
    befriend(ana, ben)
    refused("no_text", user_id=ana.pk, name="ana", table_id=table.pk, text="hello")
    assert sent == []


def test_typed_lines_go_to_friends_only_masked_and_reportable(make_user, sent):
    from games.services import seat_join, table_create

    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = table_create(mode=Table.Mode.FRIEND, variant="draw", options={"seats": 3})
    for person in (ana, ben, cy):
        seat_join(table_id=table.pk, user=person)
    refused("no_friends", user_id=ana.pk, name="ana", table_id=table.pk, text="hi")
    befriend(ana, ben)
    refused("empty", user_id=ana.pk, name="ana", table_id=table.pk, text="   ")
    refused("too_long", user_id=ana.pk, name="ana", table_id=table.pk, text="x" * 201)
    services.chat_send(
        user_id=ana.pk, name="ana", table_id=table.pk, text="que  MIERDA de mano"
    )
    groups = sorted(g for g, _ in sent)
    assert groups == sorted([f"user.{ana.pk}", f"user.{ben.pk}"])  # not Cy
    frame = sent[0][1]["frame"]
    assert frame["text"] == "que ****** de mano"
    line = ChatLine.objects.get()
    assert frame["line"] == line.pk and line.text == "que MIERDA de mano"
    # Cy never saw it: she cannot report it; Ben can, once.
    with pytest.raises(ChatError):
        services.chat_report(line_id=line.pk, user=cy)
    with pytest.raises(ChatError):
        services.chat_report(line_id=line.pk, user=ana)  # one's own line
    services.chat_report(line_id=line.pk, user=ben)
    services.chat_report(line_id=line.pk, user=ben)
    assert ChatReport.objects.count() == 1


def test_the_chat_is_rate_limited(make_user, sent):
    table, ana, _ben = two_human_table(make_user, mode=Table.Mode.ONLINE)
    for _ in range(services.CHAT_LINES):
        services.chat_send(user_id=ana.pk, name="ana", table_id=table.pk, phrase="oops")
    err = refused("rate", user_id=ana.pk, name="ana", table_id=table.pk, phrase="oops")
    assert "wait" in err.message


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("you FUCKING idiot", "you ******* idiot"),
        ("eres un cabrón", "eres un ******"),
        ("quin malparit", "quin ********"),
        ("ty kurwa", "ty *****"),
        ("che stronzo", "che *******"),
        ("Scunthorpe puts a shitake mushroom", "Scunthorpe puts a shitake mushroom"),
    ],
)
def test_the_filter_masks_insults_in_each_language_and_no_more(said, shown):
    assert text_clean(said) == shown


def test_the_report_page_answers_in_words(client, make_user):
    client.force_login(make_user())
    resp = client.post("/chat/lines/12345/report/", HTTP_ACCEPT="application/json")
    assert resp.status_code == 400
    assert resp.json() == {
        "code": "unknown",
        "message": "There is no such message to report.",
    }
