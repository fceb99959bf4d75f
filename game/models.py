# Games and their move logs will live here; the rules stay in game.engine.
