"""Staff-created arenas: pick a pool, a start and a length; the rest follows the
pool. Scheduled arenas are listed too, read-only once created."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from matchmaking.pools.config import pool_get, pools_all
from tournaments.arenas.errors import ArenaError
from tournaments.arenas.models import Arena, ArenaPlayer
from tournaments.arenas.services import arena_create


class ArenaCreateForm(forms.ModelForm):
    """The pool by name and a length in minutes; ``arena_create`` does the rest."""

    pool = forms.ChoiceField(label=_("Pool"), choices=())
    minutes = forms.IntegerField(
        label=_("Length (minutes)"), min_value=5, max_value=24 * 60, initial=60
    )

    class Meta:
        model = Arena
        fields = ["pool", "starts_at"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pool = self.fields["pool"]
        assert isinstance(pool, forms.ChoiceField)
        pool.choices = [(p.key, p.title) for p in pools_all()]

    def clean_pool(self) -> str:
        key = self.cleaned_data["pool"]
        if pool_get(key) is None:
            raise forms.ValidationError(_("There is no such game in the lobby."))
        return str(key)


class ArenaPlayerInline(admin.TabularInline):
    model = ArenaPlayer
    extra = 0
    can_delete = False
    fields = ["user", "score", "streak", "games", "wins", "paused", "rank"]
    readonly_fields = ["user", "score", "streak", "games", "wins", "paused", "rank"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    list_display = ["id", "pool", "starts_at", "ends_at", "status", "created_by"]
    list_filter = ["status", "pool"]
    inlines = [ArenaPlayerInline]

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = ArenaCreateForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        return [] if obj is None else self.inlines

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return []
        return [f.name for f in Arena._meta.fields]

    def save_model(
        self, request: HttpRequest, obj: Arena, form: Any, change: bool
    ) -> None:
        if change:
            return
        try:
            made = arena_create(
                pool_key=form.cleaned_data["pool"],
                starts_at=form.cleaned_data["starts_at"],
                minutes=form.cleaned_data["minutes"],
                created_by=request.user,  # type: ignore[arg-type]
            )
        except ArenaError as exc:
            raise forms.ValidationError(exc.message) from None
        obj.pk = made.pk

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
