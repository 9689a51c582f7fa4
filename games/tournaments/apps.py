from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.signals import game_advanced
        from games.tournaments.scheduling import on_game_advanced

        game_advanced.connect(on_game_advanced, dispatch_uid="tournaments.on_game_advanced")
