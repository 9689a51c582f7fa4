"""``GET games/{id}/analysis.svg``: the analysis as a picture a person reads at a glance.

One line per seat over the game (``ai.analysis.Chart``: what the kind's analysis measures, an
expected final score or a chance to win), and beside each seat its luck and skill loss. Plain SVG
1.1 (no script, no external reference), every label in the request's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from ai.analysis import Chart, SeatLine
from games.kinds import kind_label

WIDTH, HEIGHT = 760, 420
LEFT, RIGHT, TOP, BOTTOM = 70, 230, 50, 60
#: Seat colours, told apart also by colour-blind readers (Okabe and Ito).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
FONT = "font-family='sans-serif'"


def _measure_label(chart: Chart) -> str:
    labels = {
        "score": _("Expected final score"),
        "chance": _("Chance to win"),
        "points": _("Points banked"),
    }
    return labels[chart.measure]


def _bounds(chart: Chart) -> tuple[float, float]:
    if chart.measure == "chance":
        return 0.0, 1.0
    values = [v for line in chart.lines for v in line] or [0.0]
    low, high = min(values), max(values)
    pad = max(10.0, (high - low) * 0.08)
    return max(0.0, low - pad), high + pad


def render(kind_code: str, chart: Chart, lines: Sequence[SeatLine], names: Sequence[str]) -> str:
    """The SVG document of a game of ``kind_code``: ``chart`` plotted, each seat's line (its
    luck, skill loss and result) beside it under its name."""
    low, high = _bounds(chart)
    steps = max(1, max((len(line) for line in chart.lines), default=1) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: float) -> float:
        return LEFT + plot_w * i / steps

    def y(v: float) -> float:
        return TOP + plot_h * (1 - (v - low) / (high - low or 1))

    title = _("%(game)s: luck and skill") % {"game": kind_label(kind_code)}
    step_label = _("Turn") if chart.step == "turn" else _("Round")
    out = [
        "<?xml version='1.0' encoding='UTF-8'?>",
        f"<svg xmlns='http://www.w3.org/2000/svg' version='1.1' width='{WIDTH}' "
        f"height='{HEIGHT}' viewBox='0 0 {WIDTH} {HEIGHT}' role='img'>",
        f"<title>{escape(title)}</title>",
        f"<rect width='{WIDTH}' height='{HEIGHT}' fill='#ffffff'/>",
        f"<text x='{LEFT}' y='28' {FONT} font-size='18' font-weight='bold'>{escape(title)}</text>",
    ]
    step = (high - low) / 5
    for tick in (low + i * step for i in range(6)):
        shown = (
            f"{round(tick * 100)} %" if chart.measure == "chance" else number_format(round(tick))
        )
        out.append(
            f"<line x1='{LEFT}' y1='{y(tick):.1f}' x2='{LEFT + plot_w}' y2='{y(tick):.1f}' "
            "stroke='#dddddd'/>"
        )
        out.append(
            f"<text x='{LEFT - 8}' y='{y(tick) + 4:.1f}' {FONT} font-size='11' "
            f"text-anchor='end'>{escape(shown)}</text>"
        )
    for i in range(0, steps + 1, max(1, steps // 13)):
        out.append(
            f"<text x='{x(i):.1f}' y='{TOP + plot_h + 18}' {FONT} font-size='11' "
            f"text-anchor='middle'>{i}</text>"
        )
    out += [
        f"<line x1='{LEFT}' y1='{TOP}' x2='{LEFT}' y2='{TOP + plot_h}' stroke='#333333'/>",
        f"<line x1='{LEFT}' y1='{TOP + plot_h}' x2='{LEFT + plot_w}' y2='{TOP + plot_h}' "
        "stroke='#333333'/>",
        f"<text x='{LEFT + plot_w / 2:.1f}' y='{HEIGHT - 18}' {FONT} font-size='12' "
        f"text-anchor='middle'>{escape(step_label)}</text>",
        f"<text x='16' y='{TOP + plot_h / 2:.1f}' {FONT} font-size='12' text-anchor='middle' "
        f"transform='rotate(-90 16 {TOP + plot_h / 2:.1f})'>"
        f"{escape(_measure_label(chart))}</text>",
    ]
    for seat, line in enumerate(chart.lines):
        colour = COLOURS[seat % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        out.append(
            f"<polyline class='seat' data-seat='{seat}' points='{points}' fill='none' "
            f"stroke='{colour}' stroke-width='2.5' stroke-linejoin='round'/>"
        )
    out += _legend(lines, names, LEFT + plot_w + 20)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(lines: Sequence[SeatLine], names: Sequence[str], left: int) -> list[str]:
    out = []
    for line in lines:
        top = TOP + 10 + line.seat * 78
        colour = COLOURS[line.seat % len(COLOURS)]
        name = names[line.seat] or _("Seat %(number)d") % {"number": line.seat + 1}
        luck = _("luck %(points)s") % {"points": _signed(line.luck)}
        accuracy = "" if line.accuracy is None else f" ({round(line.accuracy * 100)} %)"
        loss = number_format(round(line.skill_loss, 1), decimal_pos=1)
        skill = _("skill loss %(points)s") % {"points": loss} + accuracy
        out += [
            f"<rect x='{left}' y='{top - 10}' width='14' height='14' fill='{colour}'/>",
            f"<text x='{left + 20}' y='{top + 2}' {FONT} font-size='13' "
            f"font-weight='bold'>{escape(name)}</text>",
            f"<text x='{left + 20}' y='{top + 20}' {FONT} font-size='12'>{escape(luck)}</text>",
            f"<text x='{left + 20}' y='{top + 36}' {FONT} font-size='12'>{escape(skill)}</text>",
        ]
        if line.final is not None:
            final = _("final score %(points)s") % {"points": number_format(line.final)}
            out.append(
                f"<text x='{left + 20}' y='{top + 52}' {FONT} font-size='12'>{escape(final)}</text>"
            )
    return out


def _signed(value: float) -> str:
    shown = number_format(round(value, 1), decimal_pos=1)
    return shown if value < 0 else f"+{shown}"
