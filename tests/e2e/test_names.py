"""Names as a Kiswahili table shows them: computers are "Kompyuta N", in the text and picture."""

from __future__ import annotations

from collections.abc import Callable

from bot import AlbastiniBot
from cogs.i18n import t
from tests.e2e.conftest import assert_clean, settle
from tests.fakediscord import FakeDiscord


async def test_a_swahili_table_names_its_computers_in_kiswahili(
    make_bot: Callable[..., AlbastiniBot],
) -> None:
    async with FakeDiscord() as fake:
        admin = fake.add_user("Admin", manage_guild=True)
        neema = fake.add_user("Neema")
        async with fake.run_bot(make_bot()) as bot:
            await fake.slash(admin, "albastini settings", language="sw")
            r = await fake.slash(neema, "albastini start", players=3, computers=True)
            table_msg = r.message
            assert table_msg is not None
            assert "Kompyuta 1" in table_msg.text and "Computer" not in table_msg.text  # lobby
            start = t("sw", "button.start")
            await fake.wait_until(lambda: fake.find_button(table_msg, label=start))
            await fake.click(neema, table_msg, label=start)
            await fake.wait_until(lambda: table_msg.attachments, timeout=10)
            await settle(bot, fake)
            assert "Kompyuta 1" in table_msg.text and "Kompyuta 2" in table_msg.text
            assert "Computer" not in table_msg.text
            assert table_msg.attachments  # the picture, drawn with the same names (its alt text)
            alt = table_msg.attachments[0].description or ""
            assert "Kompyuta 1" in alt and "Kompyuta 2" in alt and "Computer" not in alt, alt
        assert_clean(fake)
