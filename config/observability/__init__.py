"""Logs, metrics and health checks."""
