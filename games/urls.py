from django.urls import path

from games import offline_views, tv_views, views
from games.replays import views as replays
from games.reviews import views as reviews

# An address per language (config/urls.py): a shared replay.
public_urlpatterns = [
    path("tables/<int:table_id>/replay/", replays.table_replay, name="table-replay"),
]

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/offline/", offline_views.offline_page, name="offline"),
    path("play/offline/notice/", offline_views.offline_notice, name="offline-notice"),
    path(
        "play/offline/results/", offline_views.offline_results, name="offline-results"
    ),
    path("games/", views.my_games, name="my-games"),
    path("tv/", tv_views.tv_page, name="tv"),
    path("tv/<slug:channel>/", tv_views.tv_page, name="tv-channel"),
    path("tv/<slug:channel>/now", tv_views.tv_now_json, name="tv-now"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/rematch/", views.table_rematch, name="table-rematch"),
    path("tables/<int:table_id>/history/", views.table_history, name="table-history"),
    path("tables/<int:table_id>/log.json", views.table_log_json, name="table-log"),
    path("tables/<int:table_id>/fair.json", views.table_fair, name="table-fair"),
    path(
        "tables/<int:table_id>/event.json", views.table_event_json, name="table-event"
    ),
    path(
        "tables/<int:table_id>/replay.json",
        replays.table_replay_json,
        name="table-replay-json",
    ),
    path(
        "tables/<int:table_id>/replay.png",
        replays.table_replay_png,
        name="table-replay-png",
    ),
    path("tables/<int:table_id>/record.txt", replays.table_record, name="table-record"),
    path(
        "tables/<int:table_id>/review/<int:hand>/",
        reviews.table_review,
        name="table-review",
    ),
    path(
        "tables/<int:table_id>/review/<int:hand>.json",
        reviews.table_review_json,
        name="table-review-json",
    ),
    path(
        "tables/<int:table_id>/review/<int:hand>/deeper/",
        reviews.table_review_deeper,
        name="table-review-deeper",
    ),
]
