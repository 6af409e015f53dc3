"""A local fake Discord for end-to-end tests through the real discord.py client.

See README.md in this folder. Typical use::

    async with running_fake() as fake, BotRunner(fake, make_bot) as runner:
        alice = fake.members[0]
        rec = await alice.slash("gouji", "play", cards="KK")
        reply = await rec.original()
"""

from .accounting import ChannelTally, RequestTally, message_tally, request_tally
from .commands import CommandUnavailable
from .model import AttachmentRecord, InteractionRecord, MessageRecord, RequestRecord, ResponseRecord
from .runner import BotRunner, running_fake
from .server import FakeDiscord, WaitTimeout
from .users import SimUser, UserActionError

__all__ = [
    "AttachmentRecord",
    "BotRunner",
    "ChannelTally",
    "CommandUnavailable",
    "FakeDiscord",
    "InteractionRecord",
    "MessageRecord",
    "RequestRecord",
    "RequestTally",
    "ResponseRecord",
    "SimUser",
    "UserActionError",
    "WaitTimeout",
    "message_tally",
    "request_tally",
    "running_fake",
]
