"""The API's renderers beside DRF's (REST_FRAMEWORK's DEFAULT_RENDERER_CLASSES); apart from
config.vocabulary.problems so that the stream tier, which sends problems too, never imports DRF's
renderers."""

from rest_framework.renderers import JSONRenderer

from config.vocabulary.problems import PROBLEM_JSON


class ProblemJSONRenderer(JSONRenderer):
    """JSON for a client that asks for ``application/problem+json`` alone."""

    media_type = PROBLEM_JSON
    format = "json"  # one format for ?format=: DRF picks the first, JSONRenderer
