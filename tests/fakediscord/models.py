"""Data the fake Discord keeps: users, channels, messages, components, and Discord's limits."""

from __future__ import annotations

import datetime
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
# Component types (https://discord.com/developers/docs/components/reference)
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL = 1, 2, 9, 10, 11
MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR, CONTAINER = 12, 13, 14, 17
SELECTS = (3, 5, 6, 7, 8)
#: Components V2 limits: components in a message counted at any depth, text in all its text
#: displays, items of a media gallery, and a media item's description (its alt text).
V2_MAX_COMPONENTS = 40
V2_MAX_TEXT = 4000
GALLERY_MAX_ITEMS = 10
MEDIA_DESCRIPTION_MAX = 1024

# Permission bits (https://discord.com/developers/docs/topics/permissions)
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
MANAGE_MESSAGES = 1 << 13
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
MANAGE_THREADS = 1 << 34
MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
)

_counter = itertools.count(1)


_worker = 0  # Discord's worker and process bits: tell apart ids made by fake processes


def set_snowflake_worker(worker: int) -> None:
    """Make this process's snowflakes differ from those of other fake processes (0-31) made
    in the same millisecond (``bench/bot_load.py --drivers``: one bot, several fakes)."""
    global _worker
    if not 0 <= worker < 32:
        raise ValueError("a worker is 0 to 31")
    _worker = worker


def snowflake() -> int:
    """A fresh, increasing snowflake whose timestamp is now."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (_worker << 17) | (next(_counter) & 0x1FFFF)


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    """A person (or the bot) in the fake Discord. Create people with `FakeDiscord.add_user`."""

    id: int
    name: str
    manage_messages: bool = False
    manage_guild: bool = False
    owner: bool = False
    bot: bool = False
    locale: str = "en-US"
    joined_at: str = field(default_factory=iso_now)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


#: Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types)
GUILD_TEXT = 0
DM = 1
GROUP_DM = 3
PUBLIC_THREAD = 11
#: What an app may do in a DM or group DM (``app_permissions`` of an interaction from one):
#: Discord gives ATTACH_FILES, EMBED_LINKS and MENTION_EVERYONE there, and USE_EXTERNAL_EMOJIS
#: too in a DM with the app's bot user.
PRIVATE_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
BOT_DM_PERMISSIONS = PRIVATE_PERMISSIONS | USE_EXTERNAL_EMOJIS


@dataclass(eq=False)
class FakeChannel:
    """A server's text channel, or (``guild_id`` None) a DM or group DM with ``recipients``."""

    id: int
    guild_id: int | None
    name: str
    position: int = 0
    type: int = GUILD_TEXT
    recipients: list[FakeUser] = field(default_factory=list)
    owner_id: int | None = None  # a group DM's creator (a thread's: the bot that started it)
    parent_id: int | None = None  # a thread's channel
    archived: bool = False  # a thread closed to new messages until it is opened again

    @property
    def private(self) -> bool:
        """A DM or a group DM: no server, so no member, roles or guild commands."""
        return self.guild_id is None

    def payload(self, with_guild: bool = True) -> dict[str, Any]:
        if self.type == DM:  # as Discord sends a DM in an interaction
            return {
                "id": str(self.id), "type": DM, "last_message_id": None, "flags": 0,
                "recipients": [u.payload() for u in self.recipients],
            }
        if self.type == GROUP_DM:
            return {
                "id": str(self.id), "type": GROUP_DM, "name": self.name, "icon": None,
                "owner_id": str(self.owner_id), "last_message_id": None, "flags": 0,
                "recipients": [u.payload() for u in self.recipients],
            }
        if self.type == PUBLIC_THREAD:  # as Discord sends a thread
            data_t: dict[str, Any] = {
                "id": str(self.id), "type": PUBLIC_THREAD, "name": self.name,
                "parent_id": str(self.parent_id), "owner_id": str(self.owner_id),
                "last_message_id": None, "rate_limit_per_user": 0, "flags": 0,
                "message_count": 0, "member_count": 1,
                "thread_metadata": {"archived": self.archived, "auto_archive_duration": 1440,
                                    "archive_timestamp": iso_now(), "locked": False},
            }
            if with_guild and self.guild_id is not None:
                data_t["guild_id"] = str(self.guild_id)
            return data_t
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": 0,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if with_guild and self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    moderator_role_id: int
    manager_role_id: int
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    member_ids: list[int] = field(default_factory=list)
    #: whether the bot is a member (the server installed the app); False: people reach the app
    #: here only through their own install of it, and the bot has no access to the channels
    bot_member: bool = True

    def roles_payload(self) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: int, pos: int) -> dict[str, Any]:
            return {
                "id": str(rid), "name": name, "permissions": str(perms), "position": pos,
                "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0,
            }

        return [
            role(self.id, "@everyone", EVERYONE_PERMISSIONS, 0),
            role(self.moderator_role_id, "Moderator", EVERYONE_PERMISSIONS | MANAGE_MESSAGES, 1),
            role(self.manager_role_id, "Manager", EVERYONE_PERMISSIONS | MANAGE_GUILD, 2),
        ]

    def role_ids(self, user: FakeUser) -> list[str]:
        roles = []
        if user.manage_messages:
            roles.append(str(self.moderator_role_id))
        if user.manage_guild:
            roles.append(str(self.manager_role_id))
        return roles

    def permissions(self, user: FakeUser) -> int:
        if user.id == self.owner_id or user.bot:
            return ALL_PERMISSIONS
        perms = EVERYONE_PERMISSIONS
        if user.manage_messages:
            perms |= MANAGE_MESSAGES
        if user.manage_guild:
            perms |= MANAGE_GUILD
        return perms

    def member_payload(self, user: FakeUser, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": user.payload(),
            "roles": self.role_ids(user),
            "joined_at": user.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions(user))
        return data


@dataclass(eq=False)
class FakeAttachment:
    """A file attached to a message; `data` holds its bytes."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def image_size(self) -> tuple[int, int] | None:
        """(width, height) if the bytes are a PNG, else None."""
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and len(self.data) >= 24:
            return int.from_bytes(self.data[16:20], "big"), int.from_bytes(self.data[20:24], "big")
        return None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description is not None:
            data["description"] = self.description
        dims = self.image_size()
        if dims:
            data["width"], data["height"] = dims
        return data


@dataclass(frozen=True)
class FakeButton:
    """A button as a person sees it on a message."""

    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    url: str | None = None
    emoji: str | None = None
    row: int = 0


@dataclass(frozen=True)
class FakeSelect:
    """A select menu on a message (`values` are the option values of a string select)."""

    custom_id: str
    type: int
    options: tuple[tuple[str, str], ...]  # (label, value)
    min_values: int
    max_values: int
    disabled: bool
    placeholder: str | None = None


@dataclass(eq=False)
class FakeMessage:
    """A message as stored by the fake. `ephemeral_for` is the user id that alone sees it."""

    id: int
    channel_id: int
    guild_id: int | None  # None in a DM or group DM
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    ephemeral_for: int | None = None
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_type: int | None = None
    message_type: int = 0
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    deleted: bool = False
    edits: int = 0

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        """True while a deferred ("thinking") response has not been filled in."""
        return bool(self.flags & LOADING)

    @property
    def buttons(self) -> list[FakeButton]:
        """Every button on the message, row by row."""
        out: list[FakeButton] = []
        for row_index, row, comp in _walk(self.components):
            if comp.get("type") == 2:
                emoji = comp.get("emoji")
                out.append(FakeButton(
                    label=comp.get("label"),
                    custom_id=comp.get("custom_id"),
                    style=int(comp.get("style", 1)),
                    disabled=bool(comp.get("disabled", False)),
                    url=comp.get("url"),
                    emoji=(emoji or {}).get("name") if isinstance(emoji, dict) else None,
                    row=row_index,
                ))
            del row
        return out

    @property
    def selects(self) -> list[FakeSelect]:
        """Every select menu on the message."""
        out: list[FakeSelect] = []
        for _, _, comp in _walk(self.components):
            if comp.get("type") in (3, 5, 6, 7, 8):
                out.append(FakeSelect(
                    custom_id=comp.get("custom_id", ""),
                    type=int(comp["type"]),
                    options=tuple((o.get("label", ""), o.get("value", ""))
                                  for o in comp.get("options", [])),
                    min_values=int(comp.get("min_values", 1)),
                    max_values=int(comp.get("max_values", 1)),
                    disabled=bool(comp.get("disabled", False)),
                    placeholder=comp.get("placeholder"),
                ))
        return out

    @property
    def v2(self) -> bool:
        """True for a Components V2 message (its text is in text displays)."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def text(self) -> str:
        """Content, embed titles, descriptions and fields, and the text displays of a Components
        V2 message: everything a reader sees as text."""
        parts = [self.content]
        parts += [str(c.get("content") or "") for c in walk_all(self.components)
                  if c.get("type") == TEXT_DISPLAY]
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(str(e[key]))
            for f in e.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if (e.get("footer") or {}).get("text"):
                parts.append(e["footer"]["text"])
        return "\n".join(p for p in parts if p)

    def payload(self, app_id: int) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.message_type,
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.author.bot:
            data["application_id"] = str(app_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["webhook_id"] = str(app_id)
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                # "0": the app's guild install; its value is "0" in a DM with the bot
                "authorizing_integration_owners": {"0": str(self.guild_id or 0)},
            }
        return data


def walk_all(components: list[dict[str, Any]]) -> Any:
    """Every component of a message at any depth (rows, containers, sections and their
    accessories, gallery items excepted), in reading order."""
    stack = list(reversed(components))
    while stack:
        c = stack.pop()
        yield c
        children = list(c.get("components") or [])
        if c.get("accessory"):
            children.append(c["accessory"])
        stack.extend(reversed(children))


def media_urls(components: list[dict[str, Any]]) -> list[str]:
    """The media a Components V2 message shows: gallery items, thumbnails and files."""
    urls: list[str] = []
    for c in walk_all(components):
        if c.get("type") == MEDIA_GALLERY:
            urls += [str((item.get("media") or {}).get("url", "")) for item in c.get("items") or []]
        elif c.get("type") in (THUMBNAIL, FILE_COMPONENT):
            urls.append(str((c.get("media") or c.get("file") or {}).get("url", "")))
    return urls


def _walk(components: list[dict[str, Any]]) -> Any:
    """Yield (row_index, row, component) for every leaf component, also inside v2 containers."""
    for i, row in enumerate(components):
        if row.get("type") == 1:
            for comp in row.get("components", []):
                yield i, row, comp
        else:
            stack = [row]
            while stack:
                c = stack.pop()
                if "components" in c:
                    stack.extend(reversed(c["components"]))
                if c.get("accessory"):
                    stack.append(c["accessory"])
                if c.get("type") in (2, 3, 5, 6, 7, 8):
                    yield i, row, c


# ---------------------------------------------------------------------------------------------
# Validation against Discord's limits. Errors use Discord's 50035 shape.

ErrorList = list[tuple[tuple[str, ...], str, str]]  # (path, code, message)


def _len_err(errors: ErrorList, path: tuple[str, ...], value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def validate_message(body: dict[str, Any], *, has_files: bool = False,
                     require_content: bool = True, was_v2: bool = False,
                     attachments: set[str] | None = None) -> ErrorList:
    """Check a message body (create or edit) against Discord's documented limits.

    ``was_v2``: the edited message is a Components V2 one (the flag stays set: an edit may not
    remove it, and may not bring back content or embeds). ``attachments``: the file names the
    message will carry after this request, which an ``attachment://`` media item must name
    (None: not checked)."""
    errors: ErrorList = []
    content = body.get("content")
    if content is not None:
        _len_err(errors, ("content",), content, 2000)
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        errors.append((("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
    total = 0
    for i, e in enumerate(embeds):
        p = ("embeds", str(i))
        for key, limit in (("title", 256), ("description", 4096)):
            _len_err(errors, (*p, key), e.get(key), limit)
            total += len(e.get(key) or "")
        fields = e.get("fields") or []
        if len(fields) > 25:
            errors.append(((*p, "fields"), "BASE_TYPE_MAX_LENGTH",
                           "Must be 25 or fewer in length."))
        for j, f in enumerate(fields):
            _len_err(errors, (*p, "fields", str(j), "name"), f.get("name"), 256)
            _len_err(errors, (*p, "fields", str(j), "value"), f.get("value"), 1024)
            total += len(f.get("name") or "") + len(f.get("value") or "")
        footer = (e.get("footer") or {}).get("text")
        _len_err(errors, (*p, "footer", "text"), footer, 2048)
        author = (e.get("author") or {}).get("name")
        _len_err(errors, (*p, "author", "name"), author, 256)
        total += len(footer or "") + len(author or "")
    if total > 6000:
        errors.append((("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
                       "Embed size exceeds maximum size of 6000"))
    given = body.get("flags")
    flags = int(given or 0)
    if was_v2 and given is not None and not flags & COMPONENTS_V2:
        errors.append((("flags",), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                       "The IS_COMPONENTS_V2 flag cannot be removed from a message"))
    v2 = bool(flags & COMPONENTS_V2) or was_v2
    if v2:
        for key in ("content", "embeds", "sticker_ids", "poll"):
            if body.get(key):
                errors.append(((key,), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                               "The 'content', 'embeds', 'sticker_ids' and 'poll' fields "
                               "cannot be used when using MessageFlags.IS_COMPONENTS_V2"))
    components = body.get("components")
    if components:
        _validate_components(errors, components, v2=v2)
        if v2 and attachments is not None:
            for url in media_urls(components):
                if url.startswith("attachment://") and url[13:] not in attachments:
                    errors.append((("components",), "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                                   f"The attachment {url} was not found"))
    if require_content and not (content or embeds or components or has_files
                                or body.get("attachments") or body.get("poll")
                                or body.get("sticker_ids")):
        errors.append(((), "EMPTY", "Cannot send an empty message"))
    return errors


def _validate_v2(errors: ErrorList, components: list[dict[str, Any]]) -> None:
    """A Components V2 layout: the types allowed where they stand, and the limits of the whole
    message (components at any depth, text, gallery items, alt text)."""
    every = list(walk_all(components))
    if len(every) > V2_MAX_COMPONENTS:
        errors.append((("components",), "MAX_COMPONENTS_EXCEEDED",
                       f"Must be {V2_MAX_COMPONENTS} or fewer in total"))
    text = sum(len(str(c.get("content") or "")) for c in every if c.get("type") == TEXT_DISPLAY)
    if text > V2_MAX_TEXT:
        errors.append((("components",), "MAX_TEXT_EXCEEDED",
                       f"The text displays hold {V2_MAX_TEXT} characters at most"))
    allowed = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE_COMPONENT, SEPARATOR}

    def check(c: dict[str, Any], p: tuple[str, ...], where: set[int]) -> None:
        kind = c.get("type")
        if kind not in where:
            errors.append(((*p, "type"), "UNION_TYPE_CHOICES",
                           f"Value of field \"type\" must be one of {sorted(where)}."))
            return
        children = list(c.get("components") or [])
        if kind == CONTAINER:
            if not children:
                errors.append(((*p, "components"), "BASE_TYPE_BAD_LENGTH",
                               "Must be 1 or more in length."))
            for j, child in enumerate(children):
                check(child, (*p, "components", str(j)), allowed)
        elif kind == SECTION:
            if not 1 <= len(children) <= 3 or any(x.get("type") != TEXT_DISPLAY
                                                   for x in children):
                errors.append(((*p, "components"), "BASE_TYPE_BAD_LENGTH",
                               "A section holds 1 to 3 text displays."))
            if (c.get("accessory") or {}).get("type") not in (BUTTON, THUMBNAIL):
                errors.append(((*p, "accessory"), "BASE_TYPE_REQUIRED",
                               "A section needs a button or a thumbnail beside its text"))
        elif kind == TEXT_DISPLAY:
            if not str(c.get("content") or ""):
                errors.append(((*p, "content"), "BASE_TYPE_REQUIRED", "This field is required"))
        elif kind == MEDIA_GALLERY:
            items = list(c.get("items") or [])
            if not 1 <= len(items) <= GALLERY_MAX_ITEMS:
                errors.append(((*p, "items"), "BASE_TYPE_BAD_LENGTH",
                               f"Must be between 1 and {GALLERY_MAX_ITEMS} in length."))
            for k, item in enumerate(items):
                ip = (*p, "items", str(k))
                if not (item.get("media") or {}).get("url"):
                    errors.append(((*ip, "media", "url"), "BASE_TYPE_REQUIRED",
                                   "This field is required"))
                _len_err(errors, (*ip, "description"), item.get("description"),
                         MEDIA_DESCRIPTION_MAX)

    for i, c in enumerate(components):
        check(c, ("components", str(i)), {*allowed, CONTAINER})


def _validate_components(errors: ErrorList, rows: list[dict[str, Any]], v2: bool) -> None:
    seen: set[str] = set()
    if v2:
        _validate_v2(errors, rows)
        # the action rows at any depth follow the rules of a row
        rows = [c for c in walk_all(rows) if c.get("type") == ACTION_ROW]
    if not v2 and len(rows) > 5:
        errors.append((("components",), "BASE_TYPE_BAD_LENGTH",
                       "Must be between 1 and 5 in length."))
    for i, row in enumerate(rows):
        p = ("components", str(i))
        if not v2 and row.get("type") != 1:
            errors.append(((*p, "type"), "UNION_TYPE_CHOICES",
                           "Value of field \"type\" must be one of (1,)."))
            continue
        children = row.get("components") or []
        if not 1 <= len(children) <= 5:
            errors.append(((*p, "components"), "BASE_TYPE_BAD_LENGTH",
                           "Must be between 1 and 5 in length."))
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(children) > 1:
            errors.append(((*p, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                           "The specified component exceeds the maximum width"))
        for j, c in enumerate(children):
            cp = (*p, "components", str(j))
            cid = c.get("custom_id")
            if c.get("type") == 2:
                _len_err(errors, (*cp, "label"), c.get("label"), 80)
                style = int(c.get("style", 1))
                if style == 5:
                    if not c.get("url"):
                        errors.append(((*cp, "url"), "BASE_TYPE_REQUIRED",
                                       "This field is required"))
                elif style != 6 and not cid:
                    errors.append(((*cp, "custom_id"), "BASE_TYPE_REQUIRED",
                                   "This field is required"))
                if not c.get("label") and not c.get("emoji"):
                    errors.append(((*cp,), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                                   "A label or emoji is required"))
            elif c.get("type") in (3, 5, 6, 7, 8):
                _len_err(errors, (*cp, "placeholder"), c.get("placeholder"), 150)
                opts = c.get("options") or []
                if c.get("type") == 3 and not 1 <= len(opts) <= 25:
                    errors.append(((*cp, "options"), "BASE_TYPE_BAD_LENGTH",
                                   "Must be between 1 and 25 in length."))
                for k, o in enumerate(opts):
                    _len_err(errors, (*cp, "options", str(k), "label"), o.get("label"), 100)
                    _len_err(errors, (*cp, "options", str(k), "value"), o.get("value"), 100)
            if cid is not None:
                if len(cid) > 100:
                    _len_err(errors, (*cp, "custom_id"), cid, 100)
                if cid in seen:
                    errors.append(((*cp, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                                   "Component custom id cannot be duplicated"))
                seen.add(cid)


def form_errors(errors: ErrorList, prefix: tuple[str, ...] = ()) -> dict[str, Any]:
    """Discord's nested `errors` object for a 50035 Invalid Form Body."""
    root: dict[str, Any] = {}
    for path, code, message in errors:
        node = root
        for key in (*prefix, *path):
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return root
