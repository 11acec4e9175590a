"""The one plain message type every adapter produces."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ThreadKey(BaseModel):
    """Identifies a conversation thread across platforms.

    ``platform`` is ``"slack"``, ``"telegram"``, ``"console"`` or ``"cli"``;
    ``workspace`` is the Slack team id or the Telegram chat id; ``channel`` the
    Slack channel (or Telegram chat); ``thread`` the Slack ``thread_ts``, the
    Telegram topic id or reply-chain root (``""`` for a whole chat)."""

    model_config = {"frozen": True}

    platform: str
    workspace: str = ""
    channel: str = ""
    thread: str = ""

    def key(self) -> str:
        """Stable string form, ``platform/workspace/channel/thread``."""
        return "/".join((self.platform, self.workspace, self.channel, self.thread))

    @classmethod
    def parse(cls, key: str, platform: str = "cli") -> "ThreadKey":
        """Build a key from a user-given string: ``"a/b/c/d"`` splits into the four
        fields; anything else becomes ``ThreadKey(platform, thread=key)``."""
        parts = key.split("/")
        if len(parts) == 4:
            return cls(platform=parts[0], workspace=parts[1], channel=parts[2], thread=parts[3])
        return cls(platform=platform, thread=key)


class IncomingMessage(BaseModel):
    """A user's message as the core sees it: ``thread`` key, ``user`` id, ``text``
    (platform mention markup already removed) and the platform's ``event_id``
    (for de-duplication and logs)."""

    thread: ThreadKey
    user: str = ""
    text: str
    event_id: str = ""
    metadata: dict = Field(default_factory=dict)
