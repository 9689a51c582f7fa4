"""The API's one error vocabulary: every refusal with its stable code (``refusals``), the error
classes they raise (``errors``), the one exception handler (``exception_handler``), the RFC 9457
bodies and Django's own errors in that shape (``problems``), and the catalogue served at
``errors/`` (``error_catalogue``)."""
