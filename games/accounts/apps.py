from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "games.accounts"
    label = "game_accounts"
    verbose_name = _("Accounts in the games")

    def ready(self) -> None:
        # A finished game is rated in its move's transaction (games.signals): the core does not
        # import this package.
        from games.accounts import rating_service
        from games.signals import game_finished

        game_finished.connect(rating_service.game_finished_rate, dispatch_uid="game-rate")
