from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games import live
        from games.automation import schedule_followups
        from games.signals import game_advanced

        game_advanced.connect(schedule_followups, dispatch_uid="games.schedule_followups")
        game_advanced.connect(live.on_game_advanced, dispatch_uid="games.live")
