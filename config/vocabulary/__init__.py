"""The API's one error vocabulary: refusals, their exceptions, the exception handler, the RFC 9457
bodies and the catalogue served at ``errors/``."""
