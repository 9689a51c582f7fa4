"""Writes on players and their tokens. Each function is one transaction."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.password_validation import validate_password
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from knox.models import AuthToken
from knox.signals import token_expired

from config.vocabulary.refusals import Refusal
from players import login_guard
from players.identity import looks_like_placeholder, looks_like_staff, username_normalise
from players.models import Player
from players.name_holds import username_held
from players.sessions import sessions_end


@transaction.atomic
def player_register(*, username: str, password: str, display_name: str = "") -> Player:
    candidate = Player(username=username_normalise(username), display_name=display_name)
    if looks_like_placeholder(candidate.username):
        raise Refusal.USERNAME_RESERVED.error()
    for field, name in (("username", candidate.username), ("display_name", display_name)):
        if looks_like_staff(name):
            raise Refusal.NAME_RESERVED.error(field=field)
    _password_validate(password, candidate)
    if Player.objects.display_name_impersonates(display_name, username=candidate.username):
        raise Refusal.DISPLAY_NAME_TAKEN.error()
    conflict = Player.objects.name_conflict(candidate.username)
    if conflict is not None:
        raise (
            Refusal.USERNAME_TAKEN if conflict == "taken" else Refusal.USERNAME_CONFUSABLE
        ).error()
    # After the conflict check: a deletion frees the name and holds it in one commit, so a
    # registration that found the name free finds its hold too.
    if username_held(candidate.username):
        raise Refusal.USERNAME_HELD.error()
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save()
    except IntegrityError:  # lost a race with a registration of the same name, or a lookalike
        lost_to = Player.objects.name_conflict(candidate.username)
        refusal = Refusal.USERNAME_CONFUSABLE if lost_to == "confusable" else Refusal.USERNAME_TAKEN
        raise refusal.error() from None
    return candidate


def _password_validate(password: str, player: Player, field: str = "password") -> None:
    try:
        validate_password(password, user=player)
    except Exception as exc:  # Django's ValidationError, in the request's language already
        messages = getattr(exc, "messages", [str(exc)])
        raise Refusal.WEAK_PASSWORD.error(field=field, detail=" ".join(messages) or None) from None


@transaction.atomic
def password_set(*, player: Player, password: str) -> None:
    """A new password (checked by the validators): saving it revokes every API token."""
    _password_validate(password, player)
    player.set_password(password)
    player.save(update_fields=["password"])


def password_confirm(
    *, player: Player, password: str, request: HttpRequest | None, field: str = "password"
) -> None:
    """The account's password, asked again, checked as a sign-in is (behind the sign-in guard):
    a wrong one counts as a failed sign-in. Refused: ``wrong_password`` on ``field``, or the
    guard's refusal."""
    user = authenticate(request, username=player.get_username(), password=password)
    if user is None or user.pk != player.pk:
        raise login_guard.refusal_of(request) or Refusal.WRONG_PASSWORD.error(field=field)


@transaction.atomic
def password_change(
    *,
    player: Player,
    current_password: str,
    new_password: str,
    request: HttpRequest | None,
    keep_token: AuthToken | None,
) -> int:
    """The account's own change: every API token but ``keep_token`` and every browser session
    end; how many tokens ended. The row is held first: of two changes at once the second is
    refused, and a sign-in meanwhile comes first (its token ends here) or finds the new password."""
    Player.objects.select_for_update(no_key=True).filter(pk=player.pk).exists()
    password_confirm(
        player=player, password=current_password, request=request, field="current_password"
    )
    _password_validate(new_password, player, field="new_password")
    kept = keep_token.pk if keep_token is not None else None
    others = AuthToken.objects.filter(user=player).exclude(pk=kept).count()
    player.set_password(new_password)
    player.save(update_fields=["password"], keep_token=kept)  # the others go (Player.save)
    sessions_end(player=player)
    return others


@transaction.atomic
def player_update(
    *, player: Player, display_name: str | None = None, language: str | None = None
) -> Player:
    """The account's display name and language (None: unchanged), its row held first."""
    if language and language not in dict(settings.LANGUAGES):
        raise Refusal.UNKNOWN_LANGUAGE.error()
    player_hold(player=player)
    # An account named before the list was may keep its name.
    if display_name and looks_like_staff(display_name) and display_name != player.username:
        raise Refusal.NAME_RESERVED.error(field="display_name")
    if display_name is not None and Player.objects.display_name_impersonates(
        display_name, username=player.username, exclude_pk=player.pk
    ):
        raise Refusal.DISPLAY_NAME_TAKEN.error()
    fields = {"display_name": display_name, "language": language}
    changed = [name for name, value in fields.items() if value is not None]
    for name in changed:
        setattr(player, name, fields[name])
    if changed:
        player.save(update_fields=changed)
    return player


def player_hold(*, player: Player, refusal: Refusal = Refusal.INVALID_TOKEN) -> None:
    """Hold the account's row until the transaction ends, for a write that puts the account
    somewhere, and refuse it if the account was banned or deleted meanwhile. Its cut-off
    (``games.moderation.actions.player_cut_off``) holds the same row, so it never misses a seat
    taken while it ran. Taken before any game's or tournament's row, FOR NO KEY UPDATE."""
    rows = Player.objects.select_for_update(no_key=True).filter(pk=player.pk)
    if not rows.filter(is_active=True).exists():
        raise refusal.error()


def token_create(
    *, username: str, password: str, request: HttpRequest | None = None
) -> tuple[AuthToken, str]:
    """Check the credentials and issue a new token; the account's expired tokens go now."""
    player = authenticate(request, username=username, password=password)
    if player is None or not player.is_active:
        raise login_guard.refusal_of(request) or Refusal.INVALID_CREDENTIALS.error()
    with transaction.atomic():
        # Held as a password change holds it: one committed since the check refuses this sign-in.
        locked = Player.objects.select_for_update(no_key=True).filter(pk=player.pk)
        if locked.values_list("password", "is_active").first() != (player.password, True):
            raise Refusal.INVALID_CREDENTIALS.error()
        tokens = AuthToken.objects.filter(user=player)
        expired, _by_model = tokens.filter(expiry__lt=timezone.now()).delete()
        for _token in range(expired):  # knox's signal: one per expired token deleted
            token_expired.send(
                sender=AuthToken, username=player.get_username(), source="other_token"
            )
        instance, raw = AuthToken.objects.create(user=player)
        # The oldest past TOKENS_PER_ACCOUNT: a client signing in at every start piles up none.
        stale = tokens.order_by("-created", "-pk")[int(settings.TOKENS_PER_ACCOUNT) :]
        AuthToken.objects.filter(pk__in=list(stale.values_list("pk", flat=True))).delete()
    return instance, raw


def token_revoke(*, token: AuthToken) -> None:
    token.delete()


def token_revoke_all(*, player: Player) -> int:
    deleted, _by_model = AuthToken.objects.filter(user=player).delete()
    return deleted
