from django.urls import path

from clubs import views

urlpatterns = [
    path("clubs/", views.clubs_page, name="clubs"),
    path("clubs/new/", views.club_new, name="club-new"),
    path(
        "clubs/lines/<int:line_id>/report/",
        views.line_report,
        name="club-line-report",
    ),
    path("clubs/<slug:slug>/", views.club_detail, name="club"),
    path("clubs/<slug:slug>/join/", views.club_join, name="club-join"),
    path("clubs/<slug:slug>/leave/", views.club_leave, name="club-leave"),
    path("clubs/<slug:slug>/edit/", views.club_edit, name="club-edit"),
    path("clubs/<slug:slug>/requests/", views.request_answer, name="club-answer"),
    path(
        "clubs/<slug:slug>/requests/cancel/",
        views.request_cancel,
        name="club-request-cancel",
    ),
    path("clubs/<slug:slug>/members/", views.member_action, name="club-member"),
    path("clubs/<slug:slug>/step-down/", views.step_down, name="club-step-down"),
    path("clubs/<slug:slug>/invite/", views.member_invite, name="club-invite"),
]
