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
    words = {nid: set(classes.split()) for nid, classes in looks.items()}
    total = len(words)
    done = sum(1 for w in words.values() if w & {"done", "skipped"})
    running = [nid for nid, w in words.items() if "running" in w]
    if any("error" in w for w in words.values()):
        state = "error"
    elif running:
        state = "running"
    elif total and done == total:
        state = "done"
    elif done or any(w & {"waiting", "ready"} for w in words.values()):
        state = "waiting"
    elif total and all("future" in w for w in words.values()):
        state = "future"
    else:
        state = ""
    classes = [state] if state else []
    if any("hookfire" in w for w in words.values()):
        classes.append("hookfire")
    lines = []
    if done and state != "done":
        lines.append(f"state\t{done} of {total} ops done")
    lines += [f"run\trunning {names.get(nid, nid)}" for nid in running[:1]]
    return " ".join(classes), "\n".join(lines)


def _timeline_at(timeline, position, event):
    """Advance ``position`` in ``timeline`` to ``event``; return (position, value or None)."""
    value = None
    while position < len(timeline) and timeline[position][0] <= event:
        value = timeline[position][1]
        position += 1
    return position, value


def merge_boxes(data, members, names):
    """Give each box of ``members`` (box id → member ids) the combined timeline of its
    member nodes (``names``: node id → class name, the nodes of the snapshot), in place."""
    classes, notes = data["classes"], data["notes"]
    owner = {}
    for box, ids in members.items():
        nodes = [i for i in ids if i in names]
        owner.update({i: box for i in ids})
        changes = sorted({e for i in nodes for e, _ in classes.get(i, ())})
        looks = dict.fromkeys(nodes, "")
        positions = dict.fromkeys(nodes, 0)
        box_classes, box_notes, last = [], [], ("", "")
        for event in changes:
            for nid in nodes:
                positions[nid], value = _timeline_at(classes.get(nid, ()), positions[nid], event)
                if value is not None:
                    looks[nid] = value
            look = box_look(looks, names)
            if look[0] != last[0]:
                box_classes.append([event, look[0]])
            if look[1] != last[1]:
                box_notes.append([event, look[1]])
            last = look
        if box_classes:
            classes[box] = box_classes
        if box_notes:
            notes[box] = box_notes
    for item in owner:
        classes.pop(item, None)
        notes.pop(item, None)
    data["focus"] = [owner.get(f, f) for f in data["focus"]]
