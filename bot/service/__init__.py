"""The table service: tables, the play flow, the clock, AI seats and 托管, live state, and
what every front end asks of it — views, questions, listening, the read side (README.md).
No front end here: the Discord package (:mod:`bot.discord_bot`), ``gouji demo`` and a browser
table show the service's events and call its methods."""
