"""The end of a deal as the channel sees it: the table message shows the last round before the
deal summary and the match result are posted under it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot import AlbastiniBot
from tests.e2e.conftest import assert_clean, match_with_computers, settle
from tests.e2e.test_match import play_match
from tests.fakediscord import FakeDiscord


async def test_table_shows_the_end_of_the_deal_before_the_summary_is_posted(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        # the production pacing: at most one edit of the table message a second
        async with fake.run_bot(make_bot(edit_interval=1.0)) as bot:
            table_msg = await match_with_computers(fake, neema, players=2, target=1)
            # what the table message said when each summary first appeared in the channel
            seen: dict[int, str] = {}

            def summaries() -> bool:
                for m in fake.messages():
                    if m.id != table_msg.id and m.id not in seen and (
                        m.text.startswith("Deal ") or "wins the match" in m.text
                    ):
                        seen[m.id] = table_msg.text
                for i in seen:
                    shown = fake.message(i)
                    assert shown is not None
                    if "wins the match" in shown.text:
                        return True
                return False

            watch = asyncio.create_task(fake.wait_until(summaries, timeout=120))
            table = await play_match(bot, fake, {neema.id: neema}, table_msg)
            await watch
            await settle(bot, fake)
            assert table.status == "finished"
            for message_id, table_text in seen.items():
                posted = fake.message(message_id)
                assert posted is not None
                deal = posted.text.split(" — ")[0] if posted.text.startswith("Deal ") else ""
                # the table already showed the finished deal (its summary line starts with 🏁)
                assert f"🏁 {deal or 'Deal'}" in table_text, (posted.text, table_text)
        assert_clean(fake)
