"""Pure snapshot → DOT text. No Graphviz binary is needed to call anything here.

Every user string is escaped for the place it lands in:

* DOT quoted strings (node names, plain labels): backslashes doubled, quotes escaped, ``&``
  written ``&amp;`` (Graphviz passes ``&...;`` entities through to the SVG untouched);
* HTML-like labels (``label=<...>``): ``& < > "`` as XML entities, so no user text can close the
  label or open an element;
* ids and classes are built from snapshot ids made safe (:func:`dom_id`) and fixed words only.

Control characters are already gone (:func:`viz.text.clean`), so the SVG is well-formed XML.

Each item's DOT name is its plain-words title ending with its snapshot id: Graphviz writes it
as the SVG ``<title>`` of the element, which browsers show on hover.

Example:
    >>> from viz.examples import mul_sum
    >>> text = to_dot(mul_sum(), id_prefix="g1")
    >>> 'id="g1-n1"' in text and 'class="mg-node mg-fn"' in text
    True
"""

import hashlib
import re

from viz.style import FONT, MONO_FONT, item_attrs, item_classes, link_attrs, link_classes, palette
from viz.text import clean

__all__ = ["to_dot", "write_dot", "quote", "html_escape", "dom_id"]

BIG_LAYOUT = 300  # from this many boxes on, trade a little layout quality for speed
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def quote(text):
    """``text`` as a DOT quoted string (one line; ``&`` kept literal in the output).

    Example:
        >>> print(quote('say "hi" \\\\ & go'))
        "say \\"hi\\" \\\\ &amp; go"
    """
    return '"' + _escape(text) + '"'


def _escape(text):
    text = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("&", "&amp;")
    return text.replace("\n", " ").replace("\r", " ")


def html_escape(text):
    """``text`` for an HTML-like label: ``&``, ``<``, ``>`` and ``"`` as entities."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def dom_id(prefix, item_id):
    """The SVG element id of a scene id: ``prefix-id``; unsafe ids are replaced by a hash.

    Example:
        >>> dom_id("mg1", "t3"), dom_id("mg1", 'x"><script>')[:6]
        ('mg1-t3', 'mg1-h-')
    """
    return f"{prefix}-{_safe(item_id)}"


def _safe(item_id):
    item_id = str(item_id)
    if _SAFE_ID.fullmatch(item_id):
        return item_id
    return "h-" + hashlib.sha1(item_id.encode("utf-8", "replace")).hexdigest()[:12]


def _attrs(attrs):
    return " ".join(f"{k}={quote(v)}" for k, v in attrs.items() if v is not None)


def _html_line(line, p):
    text = html_escape(line.text) or " "  # Graphviz rejects an empty <B></B>
    if line.role == "title":
        return f'<TR><TD><B>{text}</B></TD></TR>'
    if line.role == "value":
        return (f'<TR><TD ALIGN="LEFT"><FONT FACE="{MONO_FONT}" POINT-SIZE="9">{text}'
                "</FONT></TD></TR>")
    if line.role == "badge":
        return (f'<TR><TD BGCOLOR="{p["badge"]}" CELLPADDING="3"><FONT COLOR="{p["badge_text"]}"'
                f' POINT-SIZE="9"><B> {text} </B></FONT></TD></TR>')
    if line.role == "error":
        return (f'<TR><TD ALIGN="LEFT"><FONT COLOR="{p["highlight"]}" POINT-SIZE="9">{text}'
                "</FONT></TD></TR>")
    if line.role == "state":
        return (f'<TR><TD BORDER="1" COLOR="{p["muted"]}" CELLPADDING="2"><FONT POINT-SIZE="9">'
                f"<I>{text}</I></FONT></TD></TR>")
    return f'<TR><TD><FONT POINT-SIZE="9">{text}</FONT></TD></TR>'


def _label(item, p, html):
    if not html:
        texts = [f"[{ln.text}]" if ln.role in ("badge", "state") else ln.text
                 for ln in item.lines]
        return '"' + "\\n".join(_escape(t) for t in texts) + '"'
    rows = "".join(_html_line(line, p) for line in item.lines)
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{rows}</TABLE>>'


def _node_stmt(item, prefix, p, html):
    attrs = item_attrs(item.kind, item.flags, p)
    attrs.update(id=dom_id(prefix, item.id), **{"class": item_classes(item.kind, item.flags)})
    return f"  {_name(item)} [{_attrs(attrs)} label={_label(item, p, html)}];"


def _name(item):
    title = clean(item.title.removesuffix(f" [{item.id}]"), 200)
    return quote(f"{title} [{_safe(item.id)}]")


def _edge_stmt(link, items, prefix, p):
    attrs = link_attrs(link.kind, link.flags, p)
    attrs.update(id=dom_id(prefix, link.id), **{"class": link_classes(link.kind, link.flags)})
    if link.label:
        attrs["label"] = " " + link.label + " "
    head, tail = _name(items[link.target]), _name(items[link.source])
    return f"  {tail} -> {head} [{_attrs(attrs)}];"


def _clusters(scene, prefix, p, html):
    groups = {}
    for item in scene.items.values():
        groups.setdefault(item.group, []).append(item)
    lines = []
    for k, (group, members) in enumerate(groups.items()):
        if group is None:
            lines += [_node_stmt(item, prefix, p, html) for item in members]
            continue
        lines.append(f"  subgraph cluster_{k} {{")
        label = scene.groups.get(group) or group or "module"
        attrs = {"id": dom_id(prefix, f"g{k}"), "class": "mg-cluster", "label": clean(label, 80),
                 "style": "rounded,dashed", "color": p["muted"], "fontcolor": p["muted"]}
        lines.append(f"    graph [{_attrs(attrs)}];")
        lines += ["  " + _node_stmt(item, prefix, p, html) for item in members]
        lines.append("  }")
    return lines


CAPTION_CHARS = 60   # a caption is wrapped to lines of at most this many characters
CAPTION_EM = 0.62    # the width kept per character: a monospace font's, wider than any sans


def _caption_lines(text):
    lines, line = [], ""
    for word in str(text).split():
        if line and len(line) + 1 + len(word) > CAPTION_CHARS:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line] if line else lines


def _caption_label(text, html):
    """The graph label of a caption: left-aligned lines, in a box as wide as the longest line
    in a wide font. Graphviz measures text with the layout machine's font; a viewer with a
    wider one would see one long centred line cut off at both ends of the picture."""
    lines = _caption_lines(text)
    if not html:  # ``\l`` ends a left-justified line
        return '"' + "".join(_escape(line) + "\\l" for line in lines) + '"'
    width = round(max(len(line) for line in lines) * CAPTION_EM * 10) + 4  # fontsize 10
    body = '<BR ALIGN="LEFT"/>'.join(html_escape(line) for line in lines)
    return (f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2"><TR>'
            f'<TD ALIGN="LEFT" BALIGN="LEFT" WIDTH="{width}">{body}</TD></TR></TABLE>>')


def write_dot(scene, prefix="mg", theme=None, html=True):
    """The DOT text of ``scene``; element ids start with ``prefix``.

    ``html=False`` writes plain-text labels for Graphviz builds without HTML-like labels.
    """
    p = palette(theme)
    if not _SAFE_ID.fullmatch(prefix):
        raise ValueError("id_prefix must be 1 to 64 letters, digits, '_' or '-', not "
                         f"{clean(repr(prefix), 80)}")
    head = [
        "digraph minigrad {",
        f'  graph [id="{prefix}" class="mg-graph mg-{scene.view}" rankdir={scene.rankdir} '
        f'ordering=out nodesep=0.3 ranksep=0.35 bgcolor={quote(p["paper"])} '
        f'fontname="{FONT}" fontsize=10];',
        f'  node [fontname="{FONT}" fontsize=11 fontcolor={quote(p["ink"])} margin="0.1,0.06"];',
        f'  edge [fontname="{FONT}" fontsize=9 arrowsize=0.7];',
    ]
    if len(scene.items) > BIG_LAYOUT:
        head.append("  graph [mclimit=0.3 nslimit=2];  // big graph: bound the layout work")
    if scene.caption or scene.note:
        where = "b" if scene.caption else "t"
        text = " \N{EM DASH} ".join(t for t in (scene.note, scene.caption) if t)
        head.append(f"  graph [label={_caption_label(text, html)} labelloc={where} "
                    "labeljust=l];")
    body = _clusters(scene, prefix, p, html)
    body += [_edge_stmt(link, scene.items, prefix, p) for link in scene.links]
    return "\n".join(head + body + ["}"]) + "\n"


def to_dot(obj, **options):
    """The DOT text of ``viz.draw(obj, **options)``, without rendering it.

    Example:
        >>> from viz.examples import exp_add
        >>> "ExpBackward0" in to_dot(exp_add())
        True
    """
    from viz.data import caller_names, frame_of_caller
    from viz.drawing import draw
    if options.get("names") is None:
        options["names"] = caller_names(frame_of_caller(2))
    return draw(obj, **options).source
