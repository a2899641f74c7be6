"""A wire-level fake Discord: the real bot runs through discord.py's real HTTP and gateway code.

Start it, create people, run the bot against it, act as the people, look at the channel::

    from tests.fakediscord import FakeDiscord

    async def test_start() -> None:
        async with FakeDiscord(interaction_deadline=3.0) as fake:
            neema = fake.add_user("Neema")                      # plain member
            mod = fake.add_user("Juma", manage_messages=True)   # also: manage_guild=, owner=
            bot = build_bot(guild_ready_timeout=0.01)           # your discord.py Client/Bot
            async with fake.run_bot(bot):                       # patch + login + connect + ready
                r = await fake.slash(neema, "albastini start", players=4, teams="pairs")
                assert r.response_type == 4 and not r.ephemeral
                table = r.message                               # live FakeMessage
                r2 = await fake.click(neema, table, label="Show my hand")
                assert r2.ephemeral and r2.message in fake.visible(neema)
                await fake.wait_idle()                          # bot's follow-up work done
            assert fake.failed_interactions == [] and fake.unknown_routes == []

Create users and channels *before* the bot connects (GUILD_CREATE then lists them; users added
later still work in interactions). `fake.guild_id` / `fake.channel_id` are the defaults;
`add_channel(name)` and `add_guild(name)` make more. `add_dm(user)` and
`add_group_dm(owner, *others)` make a DM / group DM: interactions from them carry no guild and no
member (a top-level `user`, the channel as type 1 / 3, `context` 1 / 2) and, as on Discord,
reach shard 0's connection only; the bot's answers land in that channel.

Running the bot
  * same process: `async with fake.run_bot(bot)` (or `with fake.patch():` around your own
    login/connect; it sets `discord.http.Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY`,
    process-wide, restored on exit: one fake per process at a time);
  * subprocess: pass `fake.env()` (DISCORD_API_BASE, DISCORD_GATEWAY_URL) to bot.py, then
    `await fake.wait_connected()`.
  * `commands.AutoShardedBot` works: GET /gateway/bot points at the fake (`shards=1` default).
  * Several fakes for one bot (a load generator's processes, each serving some shards, a
    cluster pointed at the one of its shards): give each `FakeDiscord(shards=N,
    global_limit=SharedGlobalLimit(...))` (`shared.py`: Discord's global limit kept across
    processes) and call `models.set_snowflake_worker(k)` in process k first (unique ids).
  * Restart: close the bot and start a new one against the same fake; messages, commands and
    users persist. RESUME is answered with INVALID_SESSION (start tests with reconnect=False).

Acting (each waits for the bot's initial response or the deadline; returns InteractionResult
with response_type 4/5/6/7/9 or None, message, ephemeral, failed):
  * `await fake.slash(user, "albastini start", players=4, opponent=other_user)` — options
    typed and checked (required, choices, min/max) from the synced commands. In a DM
    (`channel_id=fake.add_dm(user)`) a command not offered there (synced `dm_permission`
    false or `contexts` without it) raises DriverError unless `force=True` (a stale client).
    `result.shard` is the shard whose connection the interaction was delivered on.
  * `await fake.click(user, message, label="Play" | custom_id="...")` — raises DriverError if
    the user cannot see the message or the button is missing/disabled/a link.
  * `await fake.select(user, message, custom_id, ["value"])`
  * `await fake.send_component(user, message, custom_id)` — unchecked, for forged ids.

Looking (FakeMessage: content, embeds, components, buttons, selects, attachments (bytes in
`.data`), author, ephemeral, ephemeral_for, loading, edits, text):
  * `fake.visible(user)`, `fake.messages()`, `fake.ephemerals(user)`,
    `fake.last_message(user=None, ephemeral=None)`, `fake.message(id)`,
    `fake.find_button(message, label=...)`, `fake.commands(guild_id=None)`.
  * `await fake.wait_until(lambda: ..., timeout=5)` (returns the truthy value),
    `await fake.wait_idle(quiet=0.05)` (no REST request for `quiet` s: choose it longer than
    any pause the bot makes on purpose, e.g. between computer moves).
  * `fake.request_counts` — REST calls by route, e.g. for a benchmark's calls per move.
  * `fake.server_errors` — malformed requests (answered 400); assert it empty too.

Discord's rules enforced (assert on these lists):
  * `fake.failed_interactions` — not answered within `interaction_deadline` (later callbacks
    get 404 code 10062);
  * `fake.rejections` — every refused request: second response (400, 40060), limits of
    content/embeds/components (400, 50035 with Discord's `errors` tree), empty message (50006),
    expired token after 15 min on the controlled clock `fake.advance(s)` (401, 50027),
    ephemeral message through channel routes (404, 10008), ...;
  * `fake.unknown_routes` — requests to routes the fake does not know (answered 404);
  * `fake.rate_limited` — 429s sent when `FakeDiscord(edit_rate=(5, 5.0))` limits message
    creates/edits per channel (channel routes only; headers as Discord sends them).

Faults (Discord having a bad day):
  * `fake.fail("POST", "/channels/{cid}/messages", status=503, times=2 | until=40.0 |
    until=lambda: ...)` fails matching REST requests with Discord's error body (`code=`,
    `message=`; a regex route is searched in the path) before they reach the fake, so nothing
    changes; `until=` seconds run on the controlled clock (`fake.advance`). Returns the Fault
    (`.hits`, `.stop()`); `fake.heal()` ends them all; `fake.fault_hits` lists every failure.
  * `click(..., expired=True)` / `send_component(..., expired=True)` / `slash(...,
    expired=True)` deliver an interaction already past its deadline: the bot's callbacks get
    404 Unknown interaction (10062), and the person saw "This interaction failed".
"""

from .models import FakeAttachment, FakeButton, FakeMessage, FakeSelect, FakeUser
from .server import DriverError, FakeDiscord, Fault, FaultHit, InteractionResult, Rejection

__all__ = [
    "DriverError",
    "FakeAttachment",
    "FakeButton",
    "FakeDiscord",
    "FakeMessage",
    "FakeSelect",
    "FakeUser",
    "Fault",
    "FaultHit",
    "InteractionResult",
    "Rejection",
]
