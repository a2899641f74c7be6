"""A tiny discord.py bot that exercises the fake's features (used by test_fakediscord.py)."""

from __future__ import annotations

import asyncio
import io
import re
import struct
import zlib
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid width x height grey PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"cnt:(?P<n>\d+)"):
    """A persistent button whose custom_id carries the count; clicking edits the message."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"cnt:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content=f"count {self.n + 1}",
                                                view=counter_view(self.n + 1))


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(n))
    view.add_item(discord.ui.Button(label="Nope", custom_id="nope", disabled=True))
    return view


class Picker(discord.ui.View):
    @discord.ui.select(custom_id="pick", options=[discord.SelectOption(label=x, value=x)
                                                  for x in ("red", "green", "blue")],
                       max_values=2)
    async def pick(self, interaction: discord.Interaction[Any],
                   select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content="picked " + ",".join(select.values),
                                                view=None)


class Later(discord.ui.View):
    @discord.ui.button(label="Later", custom_id="later")
    async def later(self, interaction: discord.Interaction[Any],
                    button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # type 6: acknowledge now, edit afterwards
        await interaction.edit_original_response(content="edited after a deferred update",
                                                 view=None)


class MiniBot(commands.AutoShardedBot):
    """Slash group /mini with subcommands; records what discord.py raised for the tests."""

    def __init__(self, late_delay: float = 0.5, intents: discord.Intents | None = None,
                 **options: Any) -> None:
        """``options`` go to AutoShardedBot (``shard_ids=[1], shard_count=2``: one cluster)."""
        super().__init__(command_prefix="!", intents=intents or discord.Intents.default(),
                         guild_ready_timeout=0.01, help_command=None, **options)
        self.late_delay = late_delay
        self.errors: list[Exception] = []
        self.interactions: list[discord.Interaction[Any]] = []
        self.quiet_answers: list[tuple[int, bytes]] = []
        self.ready_count = 0
        self.tree.add_command(build_group(self))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        await self.tree.sync()

    async def on_ready(self) -> None:
        self.ready_count += 1


def build_group(bot: MiniBot) -> app_commands.Group:
    # installed for servers and people alike, offered everywhere (as a user-installable app)
    group = app_commands.Group(
        name="mini", description="test commands",
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True))

    @group.command(name="start", description="public message with a persistent button")
    @app_commands.describe(players="how many")
    async def start(interaction: discord.Interaction[Any], players: app_commands.Range[int, 2, 4],
                    teams: Literal["pairs", "solo"] = "solo",
                    rival: discord.Member | None = None) -> None:
        rival_name = rival.display_name if rival else "nobody"
        await interaction.response.send_message(
            f"table for {players} ({teams}) vs {rival_name}", view=counter_view(0))

    @group.command(name="hand", description="ephemeral reply")
    async def hand(interaction: discord.Interaction[Any]) -> None:
        bot.interactions.append(interaction)
        perms = interaction.permissions
        await interaction.response.send_message(
            f"your hand; manage_messages={perms.manage_messages} "
            f"manage_guild={perms.manage_guild}", ephemeral=True)

    @group.command(name="slow", description="defer then follow up")
    async def slow(interaction: discord.Interaction[Any], private: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=private)
        await asyncio.sleep(0.01)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("second follow-up")

    @group.command(name="picture", description="message with a PNG, then replace it")
    async def picture(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            "the table", file=discord.File(io.BytesIO(tiny_png(3, 2)), "table.png"))
        msg = await interaction.original_response()
        await msg.edit(attachments=[discord.File(io.BytesIO(tiny_png(5, 4)), "table.png")])
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        posted = await channel.send("posted", file=discord.File(io.BytesIO(tiny_png(2, 2)),
                                                                "a.png"))
        await posted.edit(attachments=[discord.File(io.BytesIO(tiny_png(6, 6)), "b.png")])

    @group.command(name="later", description="a button answered with a deferred update")
    async def later(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("press", view=Later())

    @group.command(name="late", description="answers after the deadline")
    async def late(interaction: discord.Interaction[Any]) -> None:
        await asyncio.sleep(bot.late_delay)
        try:
            await interaction.response.send_message("too late")
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    @group.command(name="twice", description="answers twice")
    async def twice(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("first")
        # discord.py refuses locally (InteractionResponded); forget that to reach the server
        interaction.response._response_type = None
        try:
            await interaction.response.send_message("second")
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    @group.command(name="bad", description="sends a message breaking a limit")
    async def bad(interaction: discord.Interaction[Any], kind: str) -> None:
        await interaction.response.defer(thinking=True)
        kwargs: dict[str, Any] = {}
        if kind == "content":
            kwargs["content"] = "x" * 2001
        elif kind == "title":
            kwargs["embed"] = discord.Embed(title="t" * 257)
        elif kind == "dup":
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="a", custom_id="same"))
            view.add_item(discord.ui.Button(label="b", custom_id="same"))
            kwargs["view"] = view
        try:
            await interaction.followup.send(**kwargs)
        except discord.HTTPException as exc:
            bot.errors.append(exc)
            await interaction.followup.send(f"refused {exc.code}")

    @group.command(name="spam", description="sends n channel messages, then edits each")
    async def spam(interaction: discord.Interaction[Any], n: int) -> None:
        await interaction.response.send_message("spamming", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        for i in range(n):
            msg = await channel.send(f"spam {i}")
            await msg.edit(content=f"spam {i} edited")

    @group.command(name="sneaky", description="edits its ephemeral through the channel route")
    async def sneaky(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("secret", ephemeral=True)
        msg = await interaction.original_response()
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        try:
            await channel.get_partial_message(msg.id).edit(content="changed")
        except discord.HTTPException as exc:
            bot.errors.append(exc)

    @group.command(name="quiet", description="answers without asking for the callback's result")
    async def quiet(interaction: discord.Interaction[Any]) -> None:
        import aiohttp

        base = discord.http.Route.BASE
        url = f"{base}/interactions/{interaction.id}/{interaction.token}/callback"
        body = {"type": 4, "data": {"content": "quietly"}}
        async with aiohttp.ClientSession() as s, s.post(url, json=body) as resp:
            bot.quiet_answers.append((resp.status, await resp.read()))

    @group.command(name="cleanup", description="edits and deletes through every route")
    async def cleanup(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("original")
        keep = await interaction.followup.send("keep", wait=True)
        await keep.edit(content="kept, edited")  # PATCH /webhooks/{app}/{token}/messages/{id}
        gone = await interaction.followup.send("gone", wait=True)
        await gone.delete()  # DELETE /webhooks/{app}/{token}/messages/{id}
        await interaction.followup.send("just for you", ephemeral=True)
        await interaction.delete_original_response()
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        temp = await channel.send("temp")
        fetched = await channel.fetch_message(temp.id)  # GET /channels/{id}/messages/{id}
        await fetched.delete()  # DELETE /channels/{id}/messages/{id}

    @group.command(name="pick", description="select menu")
    async def pick(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pick colours", view=Picker(), ephemeral=True)

    @group.command(name="unknown", description="calls a route the fake lacks")
    async def unknown(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        try:
            await bot.http.request(discord.http.Route("GET", "/stickers/{sticker_id}",
                                                      sticker_id=1))
        except discord.NotFound as exc:
            bot.errors.append(exc)
        await interaction.followup.send("done")

    return group
