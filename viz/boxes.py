"""The stepper's look of a collapsed box: the combined state of the ops inside it.

A module-call box stands for many elements (``scene.members``). Frame data (:mod:`viz.frames`)
gives each element a timeline of classes and notes; here the timelines of a box's members are
merged into the box's own:

* ``error`` if an op inside raised, else ``running`` while one runs, ``done`` once every op
  inside has run (or was skipped), ``waiting`` while some have run or wait for gradients,
  ``future`` while none was created yet; ``hookfire`` when a hook fires inside;
* a note ``k of N ops done`` and ``running <op>``, so that every step through a box shows.

The members' own timelines are dropped (they are not in the picture), and the element to keep
in view (``focus``) becomes the box.

Example:
    >>> data = {"classes": {"n1": [[0, "running"], [1, "done"]], "n2": [[1, "running"]]},
    ...         "notes": {}, "focus": ["n1", "n2"], "count": 2}
    >>> merge_boxes(data, {"m-fc1": ["n1", "n2"]}, {"n1": "MulBackward0", "n2": "TBackward0"})
    >>> data["classes"]["m-fc1"]
    [[0, 'running']]
    >>> data["notes"]["m-fc1"][1][1]
    'state\\t1 of 2 ops done\\nrun\\trunning TBackward0'
    >>> data["focus"]
    ['m-fc1', 'm-fc1']
"""

__all__ = ["merge_boxes", "box_look"]


def box_look(looks, names):
    """``(classes, note)`` of a box whose member nodes look like ``looks`` (id → classes)."""
    words = [frozenset(classes.split()) for classes in looks.values()]
    counts = {key: sum(map(test, words)) for key, test in _TESTS.items()}
    first = next((nid for nid, classes in looks.items() if "running" in classes.split()), None)
    return _look(len(words), counts, first, names)


def _look(total, counts, first_running, names):
    """``box_look`` from the counts of the member nodes' words (see ``_Members``)."""
    done = counts["done"]
    if counts["error"]:
        state = "error"
    elif first_running is not None:
        state = "running"
    elif total and done == total:
        state = "done"
    elif done or counts["waiting"]:
        state = "waiting"
    elif total and counts["future"] == total:
        state = "future"
    else:
        state = ""
    classes = [state] if state else []
    if counts["hookfire"]:
        classes.append("hookfire")
    lines = []
    if done and state != "done":
        lines.append(f"state\t{done} of {total} ops done")
    if first_running is not None:
        lines.append(f"run\trunning {names.get(first_running, first_running)}")
    return " ".join(classes), "\n".join(lines)


_TESTS = {"done": lambda w: bool(w & {"done", "skipped"}), "error": lambda w: "error" in w,
          "waiting": lambda w: bool(w & {"waiting", "ready"}), "future": lambda w: "future" in w,
          "hookfire": lambda w: "hookfire" in w}


def _box_timelines(nodes, classes, names):
    """The box's (classes, notes) timelines: its members' changes replayed in event order,
    with counts kept up to date (each change costs the same, however big the box)."""
    order = {nid: k for k, nid in enumerate(nodes)}
    changes = sorted((e, order[nid], value) for nid in nodes for e, value in classes.get(nid, ()))
    words = dict.fromkeys(nodes, frozenset())
    counts = dict.fromkeys(_TESTS, 0)
    running = set()                      # positions (in ``nodes``) of the members running
    box_classes, box_notes, last = [], [], ("", "")
    for k, (event, position, value) in enumerate(changes):
        nid = nodes[position]
        old, new = words[nid], frozenset(value.split())
        words[nid] = new
        for key, test in _TESTS.items():
            counts[key] += test(new) - test(old)
        (running.add if "running" in new else running.discard)(position)
        if k + 1 < len(changes) and changes[k + 1][0] == event:
            continue                     # the box looks as it does once the event is over
        first = nodes[min(running)] if running else None
        look = _look(len(nodes), counts, first, names)
        if look[0] != last[0]:
            box_classes.append([event, look[0]])
        if look[1] != last[1]:
            box_notes.append([event, look[1]])
        last = look
    return box_classes, box_notes


def merge_boxes(data, members, names, keep=()):
    """Give each box of ``members`` (box id → member ids) the combined timeline of its
    member nodes (``names``: node id → class name, the nodes of the snapshot), in place.

    The members' own timelines leave ``data["classes"]`` and ``data["notes"]``; the classes of
    the members of the boxes in ``keep`` (boxes that can be opened) go to
    ``data["inner"]``."""
    classes, notes = data["classes"], data["notes"]
    if keep:
        inner = data.setdefault("inner", {})
        for box in keep:
            inner.update((i, classes[i]) for i in members.get(box, ()) if i in classes)
    owner = {}
    for box, ids in members.items():
        nodes = list(dict.fromkeys(i for i in ids if i in names))
        owner.update({i: box for i in ids})
        box_classes, box_notes = _box_timelines(nodes, classes, names)
        if box_classes:
            classes[box] = box_classes
        if box_notes:
            notes[box] = box_notes
    for item in owner:
        classes.pop(item, None)
        notes.pop(item, None)
    data["focus"] = [owner.get(f, f) for f in data["focus"]]
