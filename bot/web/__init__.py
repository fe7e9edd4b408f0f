"""The Activity's web server (issue 35): the page Discord opens in its client to see and play a match by tapping
the board, and its JSON API and live updates (docs/activity.md).

A floor above the chat layer: the words it sends are the chat layer's (``bot/chat/words/``) and what a change
does on Discord goes through the chat layer's announcer, handed in by the composition root; it never imports
discord itself.
"""
