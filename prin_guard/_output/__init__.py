"""What prin-guard writes for a person: run directories and reports shared by eval, probe
and calibrate (``_runs``), and what the command line shows (``_terminal``).
"""
