from django.apps import AppConfig


class AccountsConfig(AppConfig):
    # No verbose name: the app has no models, so the admin never shows it.
    name = "games.accounts"
    label = "game_accounts"

    def ready(self) -> None:
        # A finished game is rated in its move's transaction (games.signals): the core does not
        # import this package.
        from games.accounts import rating_service
        from games.signals import game_finished

        game_finished.connect(rating_service.game_finished_rate, dispatch_uid="game-rate")
