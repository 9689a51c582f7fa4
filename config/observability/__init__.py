"""Logs, metrics and health: the JSON logs with each request's and task's id, the Prometheus
metrics and their exporters (queue depth, workers), the health checks, and the admin's history of
its custom actions."""
