"""Every text a player reads, in Chinese and English: the bot's catalog, the engine's refusals,
the command names, and the terminal's wording."""
