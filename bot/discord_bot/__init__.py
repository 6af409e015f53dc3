"""The Discord adapter — the only package that imports discord.py: the client, the /gouji cog,
the DM components, the replies, the presenter that sends, the command translator and the
endpoints."""
