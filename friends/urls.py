from django.urls import path

from friends import views

urlpatterns = [
    path("friends/", views.friends_page, name="friends"),
    path("watch/", views.watch_page, name="watch"),
    path("friends/add/", views.friend_add, name="friend-add"),
    path("friends/remove/", views.friend_remove, name="friend-remove"),
    path("friends/invite/", views.friend_invite, name="friend-invite"),
    path(
        "friends/requests/<int:request_id>/accept/",
        views.request_accept,
        name="friend-accept",
    ),
    path(
        "friends/requests/<int:request_id>/decline/",
        views.request_decline,
        name="friend-decline",
    ),
    path(
        "friends/requests/<int:request_id>/cancel/",
        views.request_cancel,
        name="friend-cancel",
    ),
]
