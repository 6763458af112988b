"""Errors that name the problem in one line.

Every error meadhall raises on bad input is a :class:`MeadhallError`; its ``str()`` is a single
line a player or designer can act on, and the CLI prints exactly that line.
"""

from __future__ import annotations


class MeadhallError(Exception):
    """Base of every error meadhall raises on purpose."""


class IllegalAction(MeadhallError):
    """An action the rules forbid; names the rule (game and rulebook section) it breaks.

    >>> print(IllegalAction("niflheim", "Zone of Control (ZOC)", "Frida is in a ZOC and must stop"))
    illegal action: Frida is in a ZOC and must stop [niflheim: Zone of Control (ZOC)]
    """

    def __init__(self, game: str, section: str | None, reason: str) -> None:
        self.game = game
        self.section = section
        self.reason = reason
        where = f" [{game}: {section}]" if section else f" [{game}]"
        super().__init__(f"illegal action: {reason}{where}")

    @property
    def rule(self) -> tuple[str, str | None]:
        return (self.game, self.section)


class ContentError(MeadhallError):
    """A data or position file that does not fit its schema: names file, field and reason.

    >>> print(ContentError("maps/s1.json", "rows[3]", "row is 11 squares wide, expected 12"))
    maps/s1.json: rows[3]: row is 11 squares wide, expected 12
    """

    def __init__(self, file: str, field: str, reason: str) -> None:
        self.file = str(file)
        self.field = field
        self.reason = reason
        super().__init__(f"{self.file}: {field}: {reason}" if field else f"{self.file}: {reason}")


class SaveError(MeadhallError):
    """A save file that cannot be written or read back."""


class RuleNotImplemented(MeadhallError, NotImplementedError):
    """A rule the engine does not implement yet: fails loudly instead of being skipped.

    >>> print(RuleNotImplemented("midhalla", "Global Events", "event 15 is not printed"))
    not implemented: midhalla: Global Events (event 15 is not printed)
    """

    def __init__(self, game: str, section: str, detail: str = "") -> None:
        self.game = game
        self.section = section
        extra = f" ({detail})" if detail else ""
        super().__init__(f"not implemented: {game}: {section}{extra}")
