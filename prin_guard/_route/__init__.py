"""The route every verdict takes, for every task: plan -> prefetch -> ask -> read ->
reconcile -> verdict.

``_guard`` (the facade: :class:`~prin_guard.Guard`), ``_setup`` (who judges and how, and
every check of a guard's construction), ``_decorator`` (``@prin_guard.guard``),
``_stream`` (batches), ``_judging`` (a verdict's legs asked: the span, the log line,
escalation), ``_legs`` (planning and reading legs), ``_reading`` (one reply read),
``_decide`` (legs to the Verdict, built there alone), ``_usage`` (what a verdict cost),
``_acceptance`` (calibrated acceptance), ``_informative`` (a run's informativeness) and
``_options`` (:class:`~prin_guard.GuardOptions`). The tasks themselves are
:mod:`prin_guard.tasks`.
"""
