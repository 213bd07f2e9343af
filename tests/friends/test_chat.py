"""Quick chat: phrases to everyone seated, typed lines only between friends in a
friend room, the word filter in every language (and through its usual disguises),
limits, reports."""

from __future__ import annotations

import pytest

from chat import services
from chat.errors import ChatError
from chat.models import ChatLine, ChatReport
from core.words import text_clean, text_normal
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
    assert line.normal == "que mierda de mano"
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


# Zero-width space, soft hyphen, word joiner, a bidi mark, a variation selector.
INVISIBLE = ("\u200b", "\u00ad", "\u2060", "\u200e", "\ufe0f")


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        # Invisible characters inside the word.
        *((f"you f{c}uck", f"you {'*' * 5}") for c in INVISIBLE),
        ("que p\u200bu\u200bt\u200ba", "que " + "*" * 7),
        # Letters of other scripts that look like Latin ones (Cyrillic, Greek).
        ("\u0441unt", "****"),  # Cyrillic es
        ("b\u0456tch", "*****"),  # Cyrillic i
        ("ty \u043aurw\u0430", "ty *****"),  # Cyrillic ka and a
        ("sh\u0456t", "****"),
        ("str\u03bfnz\u03bf", "*******"),  # Greek omicrons
        # Compatibility forms: fullwidth, mathematical bold, a ligature.
        ("\uff26\uff35\uff23\uff2b off", "**** off"),
        ("\U0001d41f\U0001d42e\U0001d41c\U0001d424", "****"),
        ("\ufb00", "\ufb00"),  # "ff" alone is nothing
        # Digits and symbols for letters, and only inside the word.
        ("sh1t", "****"),
        ("@sshole", "*******"),
        ("$hit happens", "**** happens"),
        ("c4zzo", "*****"),
        ("fuck!", "****!"),
        ("puta!", "****!"),
        # Spaced-out letters.
        ("f u c k off", "* * * * off"),
        ("f.u.c.k", "*******"),
        ("s-h-1-t", "*******"),
        ("che s t r o n z o", "che * * * * * * *"),
        # Obvious compounds: the whole word.
        ("motherfucker", "************"),
        ("shithead", "********"),
        ("bullshit", "********"),
        ("ty wyjeba\u0107", "ty *******"),
        ("che puttanaccia", "che ***********"),
    ],
)
def test_the_filter_sees_through_disguises(said, shown):
    assert text_clean(said) == shown


@pytest.mark.parametrize(
    "said",
    [
        # en
        "Scunthorpe puts a shitake mushroom in a shiitake soup",
        "I mishit the ball, then read Dickens by the fire retardant door",
        "We assess the class: a passable assignment, e.g. the U.S.A. team",
        # es
        "La computadora del diputado está en la disputa municipal",
        "Reconocer la economía y el conocimiento, sin debilidad",
        "Imputar y computar: a, e, i, o, u",
        # ca
        "Bona partida! El diputat i la disputa, fins demà",
        "Participar és reconèixer el coneixement",
        # pl
        "Dziękuję, dobra gra i w ogóle świetna partia",
        "To tylko pierdoła, a i w z o u",
        # it
        "Un cazzotto, una scazzottata e la reputazione del deputato",
        "Ho vinto 5 partite, 3 pareggi: la principale partecipazione",
    ],
)
def test_ordinary_sentences_are_left_alone(said):
    assert text_clean(said) == said


def test_the_normal_form_folds_what_the_filter_folds():
    assert text_normal("F\u200bU\u0421K\u00e9 \uff01") == "fucke !"
    assert text_normal("Co\u00f1o") == "cono"


def test_the_staff_read_a_reported_line_as_the_filter_reads_it(
    make_user, sent, admin_client
):
    from games.services import seat_join, table_create

    ana, ben = make_user("ana"), make_user("ben")
    table = table_create(mode=Table.Mode.FRIEND, variant="draw", options={"seats": 2})
    for person in (ana, ben):
        seat_join(table_id=table.pk, user=person)
    befriend(ana, ben)
    said = "you f\u200bu\u0441k\u0456ng cheat"
    services.chat_send(user_id=ana.pk, name="ana", table_id=table.pk, text=said)
    assert sent[0][1]["frame"]["text"] == "you " + "*" * 8 + " cheat"
    line = ChatLine.objects.get()
    assert line.text == said and line.normal == "you fucking cheat"
    services.chat_report(line_id=line.pk, user=ben)
    page = admin_client.get("/admin/chat/chatreport/").content.decode()
    assert "you fucking cheat" in page
