"""Entry point: read the settings, set up logging, run the bot. `make run` starts this file."""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
from pathlib import Path

from dotenv import load_dotenv

from albastini.config import ConfigError, load_settings


def main() -> int:
    # .env in the folder the bot is started from (`make run` starts it in the checkout).
    load_dotenv(Path.cwd() / ".env")
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    # The token lives in the settings from now on. Out of the environment, it is not inherited
    # by the processes the bot starts (the courier, the computer players' workers,
    # multiprocessing's resource tracker), where anyone who can read /proc/PID/environ sees it;
    # the courier gets it through its pipe.
    os.environ.pop("DISCORD_TOKEN", None)
    if "--sync" in sys.argv[1:]:  # push the slash commands to Discord even if unchanged
        settings = dataclasses.replace(settings, sync_commands="always")
    logging.basicConfig(
        level=settings.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # discord.py at DEBUG logs every payload: private hands, interaction tokens (see config.py)
    logging.getLogger("discord").setLevel(settings.discord_log_level)
    from cogs.runner import run_bot  # imported late: discord.py is heavy

    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main())
