"""The Celery application. Workers play the computer's turns and fire timers; beat schedules."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.observability import task_context, worker_metrics

# config.broker: kombu's connections, with a guard on its Redis transport.
app = Celery("dice", amqp="config.broker:AMQP")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

__all__ = ["app", "task_context", "worker_metrics"]
