"""Which of the bot's shards one process runs, and which servers (and so which tables) that
makes its own.

Discord splits a bot's servers between ``count`` gateway connections, the shards: a server's
events and interactions all arrive on shard ``(guild_id >> 22) % count``; direct messages and
group DMs arrive on shard 0. A cluster is one bot process running some of the shards
(``bot.py --shards 0-3 --shard-count 8``); it keeps in memory, and restores at start, exactly the
tables of the servers of its shards. Every cluster reads and writes the same PostgreSQL, so
leaderboards, stats and history read what all of them stored.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_SHARDS", "Shards", "parse_shard_ids", "shard_of", "split"]

#: A bound that only catches typos (Discord's largest bots run some tens of thousands).
MAX_SHARDS = 65536


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord sends a server's events on; 0 for a DM or group DM (``None``)."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % count


@dataclass(frozen=True)
class Shards:
    """Shards ``ids`` of ``count`` (ids sorted, each below count)."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ValueError(f"the shard count must be between 1 and {MAX_SHARDS}")
        if not self.ids:
            raise ValueError("no shard given")
        if any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(
                f"shard ids run from 0 to the shard count - 1 ({self.count - 1}), got "
                f"{', '.join(map(str, self.ids))}"
            )
        if tuple(sorted(set(self.ids))) != self.ids:
            object.__setattr__(self, "ids", tuple(sorted(set(self.ids))))

    def owns(self, guild_id: int | None) -> bool:
        """True when this process receives the server's events (a DM's: shard 0's)."""
        return shard_of(guild_id, self.count) in self.ids

    @property
    def has_dms(self) -> bool:
        """Direct messages and group DMs arrive on shard 0."""
        return 0 in self.ids

    @property
    def share(self) -> float:
        """This process's part of what all the bot's processes share, e.g. Discord's global
        limit of 50 requests/s per bot token: its shards over all shards (servers are spread
        evenly over shards)."""
        return len(self.ids) / self.count

    @property
    def all(self) -> bool:
        """Every shard of the bot: nothing to filter."""
        return len(self.ids) == self.count

    def sql(self, column: str = "guild_id") -> str:
        """A condition true for the rows of servers of these shards, in SQL both SQLite and
        PostgreSQL read (the ids are checked ints, written inline)."""
        ids = ", ".join(str(int(i)) for i in self.ids)
        return f"(({column} >> 22) % {int(self.count)}) IN ({ids})"

    def describe(self) -> str:
        """``0-3 of 8``, ``1, 5 of 8``."""
        ids = self.ids
        if ids == tuple(range(ids[0], ids[-1] + 1)) and len(ids) > 1:
            return f"{ids[0]}-{ids[-1]} of {self.count}"
        return f"{', '.join(map(str, ids))} of {self.count}"


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``0-3`` → (0, 1, 2, 3); ``0,2,5-6`` → (0, 2, 5, 6). ValueError with the reason."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ValueError(f"{text!r} is not a list of shards like 0-3 or 0,2,5") from None
        if first < 0 or last < first or last - first >= MAX_SHARDS:
            raise ValueError(f"{part!r} is not a range of shards like 0-3")
        ids.update(range(first, last + 1))
    if not ids:
        raise ValueError("no shard given")
    return tuple(sorted(ids))


def split(count: int, clusters: int) -> list[Shards]:
    """Shards 0..count-1 in ``clusters`` contiguous runs as even as can be (the first ones one
    longer): ``split(8, 3)`` → 0-2, 3-5, 6-7. Cluster 0 has shard 0, so the DMs."""
    if not 1 <= clusters <= count:
        raise ValueError(f"{clusters} cluster(s) cannot share {count} shard(s): 1 to {count}")
    size, extra = divmod(count, clusters)
    out: list[Shards] = []
    start = 0
    for n in range(clusters):
        length = size + (1 if n < extra else 0)
        out.append(Shards(tuple(range(start, start + length)), count))
        start += length
    return out
