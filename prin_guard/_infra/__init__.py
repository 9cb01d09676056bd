"""What every layer leans on and no verdict is about: retries and call limits (``_retry``),
the provider's rate limit (``_ratelimit``), spans (``_tracing``), events (``_events``),
secrets scrubbed (``_redact``), environment variables (``_settings``), the worker thread
off the event loop (``_offloop``) and the one rule for the JSON written (``_json``).
"""
