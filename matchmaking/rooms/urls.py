from django.urls import path

from matchmaking.rooms import views

urlpatterns = [
    path("rooms/new/", views.room_new, name="room-new"),
    path("rooms/join/", views.room_code, name="room-code"),
    path("rooms/join/<str:token>/", views.room_join, name="room-join"),
    path("rooms/usernames.json", views.usernames, name="room-usernames"),
    path("rooms/<int:room_id>/", views.room_detail, name="room"),
    path("rooms/of-table/<int:table_id>/", views.room_of_table, name="room-of-table"),
    path("rooms/<int:room_id>/state.json", views.room_state, name="room-state"),
    path("rooms/<int:room_id>/invite/", views.room_invite, name="room-invite"),
    path("rooms/<int:room_id>/start/", views.room_start, name="room-start"),
    path("rooms/<int:room_id>/move/", views.room_move, name="room-move"),
    path("rooms/<int:room_id>/remove/", views.room_remove, name="room-remove"),
    path("rooms/<int:room_id>/leave/", views.room_leave, name="room-leave"),
    path("rooms/<int:room_id>/rematch/", views.room_rematch, name="room-rematch"),
    path(
        "rooms/<int:room_id>/spectators/",
        views.room_spectators,
        name="room-spectators",
    ),
    path("invitations/", views.invitations, name="invitations"),
    path(
        "invitations/<int:invitation_id>/accept/",
        views.invitation_accept,
        name="invitation-accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        views.invitation_decline,
        name="invitation-decline",
    ),
    path(
        "invitations/<int:invitation_id>/block/",
        views.invitation_block_confirm,
        name="invitation-block",
    ),
    path(
        "invitations/<int:invitation_id>/withdraw/",
        views.invitation_withdraw,
        name="invitation-withdraw",
    ),
]
