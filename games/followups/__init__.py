"""What a committed move sets going, in order (``advance``): the Celery work it queues by task
name (``jobs``), the notes on the live bus (``live``, typed in ``notes``)."""
