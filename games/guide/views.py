"""The rules guide's pages: the index and one page per variant."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.engine import VARIANTS
from games.forms import CHOICE_LABELS
from games.guide.data import GUIDE
from games.guide.deals import deal_tables
from games.guide.svg import picture_svg
from games.names import variant_title


def _entries() -> list[dict[str, object]]:
    return [
        {"id": e.id, "title": variant_title(e.id), "summary": e.summary}
        for e in GUIDE.values()
    ]


def rules_index(request: HttpRequest) -> HttpResponse:
    """Every variant with a one-line summary, how to use the table, tips."""
    return render(request, "games/rules/index.html", {"entries": _entries()})


def rules_variant(request: HttpRequest, variant: str) -> HttpResponse:
    """One variant: what it is, dealing, playing, scoring and an example."""
    entry = GUIDE.get(variant)
    if entry is None:
        raise Http404(gettext("There is no such variant."))
    spec = VARIANTS[variant]
    title = variant_title(variant)
    svg = picture_svg(
        entry.picture(),
        title=gettext("Example layout: %(variant)s") % {"variant": title},
        ident=f"layout-{variant.replace('_', '-')}",
    )
    return render(
        request,
        entry.template,
        {
            "entry": entry,
            "spec": spec,
            "title": title,
            # picture_svg escapes its only text (the title); the rest is numbers.
            "example_svg": mark_safe(svg),  # noqa: S308
            "deal_tables": deal_tables(variant),
            "targets": ", ".join(str(t) for t in spec.targets),
            # The Play page's house-rule labels, so the guide names them as it does.
            "house": {name: values for name, (_, values) in CHOICE_LABELS.items()},
            "house_deal": CHOICE_LABELS["deal"][1]["002"],
            "others": [e for e in _entries() if e["id"] != variant],
        },
    )
