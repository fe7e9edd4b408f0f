"""The product's rules, without Discord: matches, lobbies, play, offers, time limits, ratings, servers.

Each feature is a module; :class:`bot.service.matches.MatchService` gathers the features of a match
over one core (``core.py``: finding a match, and ``commit_move``, the one way a move is stored).
Nothing here imports discord or writes a sentence: refusals are :class:`bot.domain.errors.Refusal`
and results are :class:`bot.domain.outcome.Outcome`, which ``bot/chat/words/`` words.
"""
