"""The bot's domain: the rows of a match and its surroundings, the errors, and time.

Imports nothing from the rest of bot/: every layer above builds on these.
"""
