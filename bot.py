"""Entry point: read the settings, set up logging, run the bot. `make run` starts this file."""

from __future__ import annotations

import dataclasses
import logging
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
    if "--sync" in sys.argv[1:]:  # push the slash commands to Discord even if unchanged
        settings = dataclasses.replace(settings, sync_commands="always")
    logging.basicConfig(
        level=settings.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from cogs.runner import run_bot  # imported late: discord.py is heavy

    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main())
