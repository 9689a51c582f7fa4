"""The anchor of bench/serve.py: a minimal Django project beside the real one (see settings)."""
