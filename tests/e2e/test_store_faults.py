"""The real bot when its database is upset under it: every click is still answered."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot import AlbastiniBot
from cogs.i18n import t
from tests.doubles import write_lock_held_by_another_process
from tests.e2e.conftest import assert_clean, enabled_moves, match_with_computers, settle, table_of
from tests.fakediscord import FakeDiscord


async def test_a_click_on_a_locked_database_is_answered_and_works_once_released(
    make_bot: Callable[..., AlbastiniBot], db_path: Path
) -> None:
    """Issue 18 item 3: while another process held the database, clicks went unanswered
    ("This interaction failed") and even /albastini rules timed out, because each write waited
    for the lock on the event loop. Now the card click is answered with "couldn't be saved",
    the move is not played, the rules answer, and once the lock is gone the same card plays."""
    async with FakeDiscord() as fake:
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            table_msg = await match_with_computers(fake, neema)
            table = table_of(bot, fake)
            mine = table.seat_of(neema.id)
            await fake.wait_until(lambda: table.to_act == mine, timeout=10)
            await settle(bot, fake)
            r = await fake.click(neema, table_msg, label="Show my hand")
            hand = r.message
            assert hand is not None
            card = enabled_moves(hand)[0].custom_id
            move_no = table.move_no

            with write_lock_held_by_another_process(db_path):
                r = await fake.send_component(neema, hand, card)
                assert not r.failed and r.message is not None
                assert r.message.text == t("en", "error.storage")
                assert table.move_no == move_no  # not played
                rules = await fake.slash(neema, "albastini rules")
                assert not rules.failed and rules.message is not None and rules.ephemeral

            r = await fake.send_component(neema, hand, card)
            assert r.response_type == 7 and not r.failed
            assert table.move_no > move_no
            await settle(bot, fake)
        assert fake.failed_interactions == []
        assert_clean(fake)
