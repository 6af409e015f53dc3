"""The browser table: a second front end over the table service (no discord.py).

``app.WebTable`` serves the table client (``static/``: plain ES modules, no build step) and
one WebSocket per connected person on the event loop of the process that owns the tables;
``hub.Hub`` listens to the service and sends each socket what its seat may see;
``frames`` the typed definition of every frame and request; ``protocol`` reads each
request and answers it (the service judges every action);
``identity`` says who a socket is (``TicketGate``: a signed link); ``wire`` turns the
service's views into the client's JSON; ``strings`` the client's words, from the catalogs;
``door`` keeps the connections within the process's open files (none silent for long),
``limits`` counts the sockets (per person, per address, in all).
See docs/web.md.
"""
