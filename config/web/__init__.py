"""What every HTTP request goes through, shared by the apps: the middleware, the request's id
and client address, body and list limits, JSON-only parsing and rendering, throttles,
idempotency keys, the page policy, the answers to an outage, and the operators' endpoints."""
