"""The application: the Discord bot (a thin adapter over engine/, render/ and data/) and the
``gouji`` command line."""
