"""The Celery application. Workers play the computer's turns and fire timers; beat schedules."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# config.broker: its connections, with a guard on kombu's Redis transport (a worker that lost Redis
from config.observability import task_context, worker_metrics

# could exit; the module says how).
app = Celery("dice", amqp="config.broker:AMQP")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

__all__ = ["app", "task_context", "worker_metrics"]
