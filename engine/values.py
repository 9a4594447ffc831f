"""The engine's value classes, declared once: fields as annotations, the rest made here.

A class built on :class:`Value` lists its fields as annotated class attributes (a value
after ``=`` is the default), as a dataclass does; :class:`ValueMeta` turns them into
``__slots__``, an ``__init__`` taking them in that order (by keyword only for a
:class:`KeywordValue`) and ``__eq__``, ``__hash__`` and ``__repr__`` over them, unless the
class writes its own. Type checkers read the
class as a frozen dataclass (:func:`typing.dataclass_transform`), so an assignment to a
field after construction is a mypy error; at run time nothing stops it, which keeps
construction as cheap as a hand-written ``__init__``.

Not :mod:`dataclasses` itself: importing it (it pulls in ``inspect``) and building each
dataclass were most of ``python -m engine verify``'s start-up (docs/performance.md);
this module imports only :mod:`operator`, which the interpreter has loaded already.

No class keywords (``class X(Value, kw_only=True)``): mypyc, which compiles the engine
(``make test-compiled``), calls the metaclass without them, so they would hold only in
pure Python. What a class is comes from its bases and its own body, which both keep.

>>> class Point(Value):
...     x: int
...     y: int = 0
>>> Point(1) == Point(1, 0), Point(1, 2)
(True, Point(x=1, y=2))
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, dataclass_transform
else:

    def dataclass_transform(**_: object) -> object:
        return lambda cls: cls


def _make_init(fields: tuple[str, ...], defaults: dict[str, object], kw_only: bool) -> Any:
    """An ``__init__`` assigning ``fields`` in order, as dataclasses writes one."""
    params = ", ".join(f"{n}=_d_{n}" if n in defaults else n for n in fields)
    star = "*, " if kw_only and fields else ""
    body = "".join(f"\n    self.{n} = {n}" for n in fields) or "\n    pass"
    namespace: dict[str, Any] = {f"_d_{n}": v for n, v in defaults.items()}
    exec(f"def __init__(self, {star}{params}) -> None:{body}", namespace)
    return namespace["__init__"]


def _eq(self: Any, other: object) -> object:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self._key(self) == self._key(other)


def _hash(self: Any) -> int:
    return hash(self._key(self))


def _repr(self: Any) -> str:
    given = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
    return f"{self.__class__.__name__}({given})"


class ValueMeta(type):
    """Builds a :class:`Value` class from its annotated fields (see the module)."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> ValueMeta:
        # Compiled by mypyc, a class's ``__slots__ = ()`` comes annotated too: not a field.
        own = tuple(n for n in namespace.get("__annotations__", ()) if not n.startswith("__"))
        inherited: tuple[str, ...] = ()
        kw_only = False
        for base in bases:
            inherited = getattr(base, "_fields", inherited)
            kw_only = kw_only or getattr(base, "_kw_only", False)
        if own:
            defaults = {n: namespace.pop(n) for n in own if n in namespace}
            namespace["__slots__"] = own
            namespace.setdefault("__init__", _make_init(inherited + own, defaults, kw_only))
        namespace.setdefault("__slots__", ())
        fields = inherited + own
        namespace["_fields"] = fields
        if fields:
            namespace["_key"] = attrgetter(*fields) if len(fields) > 1 else _one(fields[0])
            made = {"__eq__": _eq, "__hash__": _hash, "__repr__": _repr}
            for method, default in made.items():
                # A subclass keeps what its bases made or wrote (Lurc: Variant's identity).
                if not any(method in vars(c) for b in bases for c in b.__mro__[:-1]):
                    namespace.setdefault(method, default)
        return super().__new__(mcs, name, bases, namespace)


def _one(name: str) -> Callable[[object], tuple[object]]:
    get = attrgetter(name)
    return lambda obj: (get(obj),)


@dataclass_transform(frozen_default=True)
class Value(metaclass=ValueMeta):
    """The base of the engine's value classes (see the module)."""

    __slots__ = ()
    if TYPE_CHECKING:  # set by ValueMeta; annotated here only for type checkers
        _fields: ClassVar[tuple[str, ...]]  # the fields in declaration order


@dataclass_transform(frozen_default=True, kw_only_default=True)
class KeywordValue(Value):
    """A :class:`Value` whose fields are given by keyword only (a variant's twenty)."""

    __slots__ = ()
    _kw_only = True
