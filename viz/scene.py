"""The scene: what a picture shows, before it is written as DOT.

A view (:mod:`viz.views`) turns a snapshot into a :class:`Scene` of :class:`Item` boxes and
:class:`Link` arrows, each with a *kind* (which look it gets, see :mod:`viz.style`), a plain-words
title, label lines and state flags. Transforms (:mod:`viz.collapse`) edit the scene; the writer
(:mod:`viz.dot`) turns it into text. Keeping these apart lets each step be tested on its own.

Ids are the snapshot's (``t3``, ``n4``, ``e5``, ``c2``) or derived from them (``n4-s0`` for a saved
slot, ``n4-o0`` for an unnamed output); the writer adds the per-drawing prefix.
"""

from dataclasses import dataclass, field

__all__ = ["Line", "Item", "Link", "Scene"]


@dataclass
class Line:
    """One line of a label. ``role`` is ``title``, ``sub``, ``value``, ``badge`` (hooks,
    released, running), ``state`` (waiting, ready) or ``error`` (an error message)."""

    text: str
    role: str = "sub"


@dataclass
class Item:
    """A box in the picture: a tensor, a node, a saved slot, a module, a marker."""

    id: str
    kind: str
    title: str
    lines: list = field(default_factory=list)
    flags: set = field(default_factory=set)
    group: str | None = None
    name: str = ""


@dataclass
class Link:
    """An arrow from ``source`` to ``target`` (item ids)."""

    id: str
    kind: str
    source: str
    target: str
    label: str = ""
    flags: set = field(default_factory=set)


@dataclass
class Scene:
    """Items (in insertion order) and links of one picture, plus graph-wide settings."""

    view: str = "backward"
    items: dict = field(default_factory=dict)
    links: list = field(default_factory=list)
    rankdir: str = "TB"
    caption: str = ""
    groups: dict = field(default_factory=dict)  # group name -> cluster label (expanded modules)
    members: dict = field(default_factory=dict)  # box id -> the ids of the items it stands for
    note: str = ""  # what was left out of the picture and how to see it all (drawn on top)

    def add(self, item):
        """Add ``item`` (first one wins when an id repeats) and return the stored one."""
        return self.items.setdefault(item.id, item)

    def link(self, link):
        """Add ``link`` if both of its ends are in the scene; returns whether it was added."""
        if link.source in self.items and link.target in self.items:
            self.links.append(link)
            return True
        return False

    def mark(self, item_id, flag):
        """Set ``flag`` on the item or link ``item_id``, if it is in the scene."""
        if item_id in self.items:
            self.items[item_id].flags.add(flag)
            return True
        for link in self.links:
            if link.id == item_id:
                link.flags.add(flag)
                return True
        return False

    def remove(self, item_ids):
        """Drop items and every link that touches them."""
        item_ids = set(item_ids)
        for item_id in item_ids:
            self.items.pop(item_id, None)
        self.links = [k for k in self.links
                      if k.source not in item_ids and k.target not in item_ids]
