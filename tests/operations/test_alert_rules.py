"""config/deploy/: the Prometheus alert rules parse and name only metrics the server exports; the
Grafana dashboard likewise; Prometheus (in docker compose) scrapes every process that exports."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml
from prometheus_client.metrics import MetricWrapperBase

from config.observability import metrics
from config.observability.queue_depth import METRIC_NAMES

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "config" / "deploy"
# Prometheus's own series (a target's health), which no process of ours defines.
PROMETHEUS_SERIES = {"up"}
FUNCTIONS_AND_WORDS = {
    "sum", "max", "min", "avg", "by", "without", "rate", "increase", "histogram_quantile",
    "clamp_min", "le", "and", "or", "unless", "on", "ignoring",
}  # fmt: skip


def exported_names() -> set[str]:
    """Every series name config.observability.metrics' metrics and the queue collector export."""
    names = set(METRIC_NAMES)
    for value in vars(metrics).values():
        if isinstance(value, MetricWrapperBase):
            assert value._type is not None  # set by each kind of metric's class
            suffixes = {
                "counter": ("_total", "_created"),
                "histogram": ("_bucket", "_sum", "_count", "_created"),
                "gauge": ("",),
            }[value._type]
            names.update(value._name + suffix for suffix in suffixes)
    return names


def names_in(expr: str) -> set[str]:
    """The series an expression selects (its identifiers that are not functions or keywords)."""
    without_strings = re.sub(r'"[^"]*"', '""', expr)
    without_labels = re.sub(r"\{[^}]*\}", "{}", without_strings)
    without_groupings = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", r"\1", without_labels)
    words = set(re.findall(r"\b[a-zA-Z_][a-zA-Z0-9_]*\b", without_groupings))
    return {w for w in words if w not in FUNCTIONS_AND_WORDS and not re.fullmatch(r"\d+[smhd]", w)}


def alert_rules() -> list[dict[str, Any]]:
    document = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())
    return [rule for group in document["groups"] for rule in group["rules"]]


def test_the_metrics_module_defines_what_the_rules_name() -> None:
    names = exported_names()
    assert {"dice_timer_lag_seconds_bucket", "dice_http_requests_total"} <= names
    assert metrics.TIMER_LAG_SECONDS is not None  # imported: registered


def test_names_in_reads_an_expression() -> None:
    expr = 'sum by (le) (rate(dice_x_bucket{status=~"5.."}[5m])) / clamp_min(up, 1) > 0.5'
    assert names_in(expr) == {"dice_x_bucket", "up"}


def test_the_alert_rules_parse_and_name_existing_metrics() -> None:
    rules = alert_rules()
    exported = exported_names() | PROMETHEUS_SERIES
    alerts = {rule["alert"] for rule in rules}
    assert {"DiceTimerLagHigh", "DiceHttp5xxRate", "DiceQueueDepth"} <= alerts
    for rule in rules:
        assert set(rule) == {"alert", "expr", "for", "labels", "annotations"}, rule["alert"]
        assert rule["labels"]["severity"] in {"page", "warn"}
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
        assert rule["expr"].count("(") == rule["expr"].count(")"), rule["alert"]
        named = names_in(rule["expr"])
        assert named and named <= exported, (rule["alert"], named - exported)


def test_the_timer_lag_alert_is_p99_past_the_auto_confirms_3_5_seconds() -> None:
    rule = next(r for r in alert_rules() if r["alert"] == "DiceTimerLagHigh")
    assert (
        "histogram_quantile(0.99" in rule["expr"]
        and "dice_timer_lag_seconds_bucket" in (rule["expr"])
    )
    # The lag is past the deadline, 3 s after the roll: 3.5 s after the roll is 0.5 s of lag.
    assert rule["expr"].rstrip().endswith("> 0.5")
    assert 0.5 in metrics.TIMER_LAG_SECONDS._upper_bounds


def test_the_dashboard_names_existing_metrics() -> None:
    dashboard = json.loads((DEPLOY / "grafana" / "dice.json").read_text())
    exported = exported_names()
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    assert len(exprs) >= 10
    for expr in exprs:
        assert names_in(expr) and names_in(expr) <= exported, expr


def test_prometheus_in_compose_scrapes_every_process_that_exports() -> None:
    config = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    targets = {
        target
        for job in config["scrape_configs"]
        for static in job["static_configs"]
        for target in static["targets"]
    }
    expected = {"api:8001", "streams:8002"}
    for name, service in services.items():
        port = (service.get("environment") or {}).get("METRICS_PORT")
        if port:
            expected.add(f"{name}:{port}")
    assert {"worker:9100", "timers:9101"} <= expected
    assert targets == expected
    prometheus = services["prometheus"]
    assert any(v.endswith(":/etc/prometheus/alerts.yml:ro") for v in prometheus["volumes"])
    assert config["rule_files"] == ["/etc/prometheus/alerts.yml"]


def test_prometheus_scrapes_the_web_tiers_with_the_internal_token() -> None:
    config = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    for name in ("dice-api", "dice-streams"):
        assert jobs[name]["authorization"]["credentials_file"] == "/prometheus/internal_token"
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    start = " ".join(compose["services"]["prometheus"]["entrypoint"])
    assert '$$INTERNAL_TOKEN" > /prometheus/internal_token' in start
