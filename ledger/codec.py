"""Results as JSON and back: an idempotent call stores its result so a repeated source returns it unchanged."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from datetime import date, datetime
from typing import Any


def encode(value: Any) -> Any:
    """A dataclass (nested dataclasses, tuples, dates) as plain JSON values."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {str(key): encode(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [encode(item) for item in value]
    names = _field_names(kind)
    if names is not None:
        return {name: encode(getattr(value, name)) for name in names}
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {str(key): encode(item) for key, item in value.items()}
    return value


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _field_names(kind: type) -> tuple[str, ...] | None:
    """A dataclass's field names (None for other types), looked up once per type."""
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind) else None
    return _FIELD_NAMES[kind]


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def decode(kind: Any, data: Any) -> Any:
    """The inverse of `encode` for a value of type `kind` (a dataclass, a list of them, ...). A field the stored
    JSON lacks (a result stored before the field was added) takes the dataclass's default."""
    origin = typing.get_origin(kind)
    if kind is Any or data is None:
        return data
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        return decode(options[0], data)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(**{name: decode(hint, data[name]) for name, hint in hints.items() if name in data})
    if kind is datetime:
        return datetime.fromisoformat(data)
    if kind is date:
        return date.fromisoformat(data)
    if origin is tuple:
        return tuple(decode(typing.get_args(kind)[0], item) for item in data)
    if origin is list:
        return [decode(typing.get_args(kind)[0], item) for item in data]
    return data


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    """A dataclass's fields and their resolved types (resolving annotations is slow; do it once per class)."""
    hints = typing.get_type_hints(kind)
    return {f.name: hints[f.name] for f in dataclasses.fields(kind)}
