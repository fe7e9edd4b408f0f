"""Hexplay's Discord bot: client, commands, storage and the service layer between them."""
