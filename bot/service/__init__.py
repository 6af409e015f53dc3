"""The table service: tables, the play flow, the clock, AI seats and 托管, live state and the
presenter protocol. No Discord here: the Discord package (:mod:`bot.discord_bot`) shows the
service's events and calls its methods."""
