"""Operations: what keeps the site running, apart from the game it serves.

- the task queue and its jobs: `queue.py` (Huey, carrying wake-ups), `jobs.py` (a job's row and
  the beats' rows), `asking.py` (a job asked for under its kind's cap, fairly between askers),
  `leases.py` (who holds a job until when, and the one task that runs it), `keeper.py` (the
  sweep that gives back a job whose lease lapsed), `watch.py` (the workers' beat, /healthz and
  /metrics lines); every job registered and the nightly work sit above, in game/schedule.py;
- the limits that face the open internet: `limits.py` (rate limits and compute slots),
  `compute_process.py` (what a compute process runs as it starts) and `refusal_pages.py` (the
  pages a refusal or a server error answers with);
- the data kept safe: `backup.py` (write a backup), `backup_folder.py` (the folder it goes into,
  refused when it could touch the live database), `backup_verify.py` (a backup read back whole),
  `restore.py` (a backup put back), `fence.py` (the workers held off and the caches forgotten
  while it is), `sqlite_file.py` (a SQLite copy opened and checked), `backup_error.py` (the
  error they raise) and `pgdump.py` (PostgreSQL's client tools); old sessions and games nobody
  played are pruned by game/prune.py;
- `warm.py`: what gunicorn's master loads before it forks its workers.

The game's domain (models, results, ranks, tallies, deals) sits at `game/`'s top level, the
pages a player sees in the folder of what they do (`game/board/`, `game/daily/`, ...).
"""
