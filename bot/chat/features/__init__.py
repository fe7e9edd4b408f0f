"""One module per feature: its slash commands, its buttons, and the flows between them and the services."""
