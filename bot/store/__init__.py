"""Where the bot keeps its data: the Store protocol (base.py) and its SQLite implementation (sqlite/)."""
