from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = _("Players")

    def ready(self) -> None:
        from games.signals import game_finished
        from players.rating_service import on_game_finished

        game_finished.connect(on_game_finished, dispatch_uid="players.rate_finished_game")
