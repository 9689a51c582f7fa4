from django.urls import path

from games.tournaments import api

urlpatterns = [
    path("tournaments/", api.TournamentListCreateView.as_view(), name="tournament-list"),
    path("tournaments/<int:tournament_id>/", api.TournamentDetailView.as_view()),
    path("tournaments/<int:tournament_id>/register/", api.TournamentRegisterView.as_view()),
    path("tournaments/<int:tournament_id>/withdraw/", api.TournamentWithdrawView.as_view()),
    path("tournaments/<int:tournament_id>/standings/", api.TournamentStandingsView.as_view()),
    path("tournaments/<int:tournament_id>/rounds/", api.TournamentRoundsView.as_view()),
]
