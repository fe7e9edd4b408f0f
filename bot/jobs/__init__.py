"""Computer turns and hints as jobs on a PostgreSQL job queue (PgQueuer), taken by worker processes.

With PostgreSQL the bot processes do not think: a computer turn that falls due, or a /hint, is a job in
the database (``queue.py``); ``python -m bot worker`` (``worker.py``) takes jobs, thinks in its own
process pool and stores the turn through the service, with the store's compare-and-set on the version
the job is for, so a job delivered twice plays once. The worker is not connected to Discord: it tells
the bot processes through PostgreSQL's LISTEN/NOTIFY (``notices.py``) that a turn was stored (a bot
posts its board) or a hint is ready. docs/workers.md says why PgQueuer and how a killed worker's job
is recovered. No Discord here.
"""
