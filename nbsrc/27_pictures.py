# ----------------------------------------------------------------------------------
# Pictures: SVG plots and an HTML report
#
# model.plot(feature) draws a feature's class-conditional distributions, model.plot()
# the model's structure, report_html() one page about a model and its predictions,
# _repr_html_ the notebook view.  Everything is drawn from what the model computes:
# tables() (naive Bayes' view, P(x_j | c), for AODE and the networks), the compiled
# scorers for densities, summary(), most_informative_features(), explain() and the
# probabilities.  The markup is well-formed XML: every SVG and the page parse with
# xml.etree.  Every text in them is escaped: the markup the code makes is a _Markup,
# and anything else (a label, a feature name, a value, a title; a tuple too) is text,
# written through _xml_text.  Series differ by colour (Okabe and Ito's palette), dash,
# marker and hatching, so they stay apart in greyscale and for colour-blind readers,
# and a class keeps its style in every picture.  The page has no script and fetches
# nothing (its Content-Security-Policy forbids both, so a browser complains if
# anything tries).  A picture's ids start with a hash of its content: pictures on one
# page never share an id (unless they are the same picture), and the same model gives
# the same bytes.
# ----------------------------------------------------------------------------------

_SVG_NAMESPACE = "http://www.w3.org/2000/svg"
_SVG_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_SVG_INK = "#222222"
_SVG_ID = "\ue000"                # stands for the picture's id prefix until it is done
_XML_FORBIDDEN = "[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


class _Markup:
    """Markup the pictures' code made itself (an element, a table, a page), written
    as it is where any other value is text (see _xml_text).  Only the code makes one,
    from its own literals (_markup, _element): no label, feature name or value can be
    one (it is unhashable, and no row or file makes one).  + joins it to markup or to
    escaped text; str() refuses it, so that markup never turns back into text that
    something would escape twice or write unescaped."""

    __slots__ = ("text",)
    __hash__ = None

    def __init__(self, text):
        self.text = text

    def __add__(self, other):
        return _Markup(self.text + _xml_text(other).text)

    def __radd__(self, other):
        return _Markup(_xml_text(other).text + self.text)

    def __str__(self):
        raise TypeError("markup is not text: join it with _markup or _markup_join")

    def __repr__(self):
        return "_Markup(%r)" % self.text


def _xml_text(value):
    """The one way a value enters XML text or an attribute: markup (_Markup) as it
    is; any other value as text: str(value), markup escaped (quotes too), characters
    XML forbids as U+FFFD, U+E000 (_SVG_ID) as a character reference."""
    import re
    from html import escape
    if isinstance(value, _Markup):
        return value
    return _Markup(escape(re.sub(_XML_FORBIDDEN, "\ufffd", str(value))).replace(
        _SVG_ID, "&#xe000;"))


def _markup(template, *values):
    """Markup from a template of the code's own (% placeholders %s only) and values,
    each through _xml_text."""
    return _Markup(template % tuple(_xml_text(value).text for value in values))


def _markup_join(parts, separator=""):
    """The parts, each through _xml_text, one after another."""
    return _Markup(separator.join(_xml_text(part).text for part in parts))


def _svg_px(number):
    """A coordinate as short text (one decimal at most)."""
    return ("%.1f" % number).rstrip("0").rstrip(".")


def _element(name, content="", **attributes):
    """An XML element (_Markup): content and attribute values through _xml_text (a
    _Markup as it is, an id with _SVG_ID; anything else as text).  Attribute names:
    _ becomes -, a trailing _ is dropped (class_); a float is written as a
    coordinate; None leaves the attribute out."""
    written, content = _xml_attributes(attributes), _xml_text(content).text
    return _Markup("<%s%s>%s</%s>" % (name, written, content, name) if content else
                   "<%s%s/>" % (name, written))


def _xml_attributes(attributes):
    """' name="value"' for each attribute of _element (None left out)."""
    return "".join(' %s="%s"' % (key.rstrip("_").replace("_", "-"), _svg_px(value)
                                 if type(value) is float else _xml_text(value).text)
                   for key, value in attributes.items() if value is not None)


def _svg_text(x, y, content, size=12, anchor="start", limit=None, **attributes):
    """A text at (x, y); cut to limit columns, the whole text then in a hover title."""
    text = str(content)
    shown = _xml_text(text)
    if limit and _width(text) > limit:
        shown = _element("title", shown) + _xml_text(_svg_clip(text, limit))
    return _element("text", shown, x=float(x), y=float(y), font_size=size,
                    text_anchor=anchor, **attributes)


def _svg_clip(value, limit):
    """A value's text on one line within limit columns, cut in the middle by an
    ellipsis so that names differing only at the end stay apart."""
    text = " ".join(str(value).split())
    if _width(text) <= limit:
        return text

    def within(characters, columns):
        kept, used = [], 0
        for character in characters:
            used += _width(character)
            if used > columns:
                break
            kept.append(character)
        return "".join(kept)
    tail = within(reversed(text), (limit - 1) // 3)[::-1]
    return within(text, limit - 1 - _width(tail)) + "\u2026" + tail


def _svg_text_width(text, size=12):
    """About the width in pixels of a text in a sans-serif font."""
    return 0.6 * size * _width(text)


def _svg_number(x, digits=4):
    """x in at most ``digits`` significant digits, its exponent without + and 0s (an
    exact count beyond the float range too)."""
    if type(x) is int and abs(x) > _FLOAT_MAX:
        text = str(abs(x))
        return "%s%s.%se%d" % ("-" if x < 0 else "", text[0],
                               text[1:digits].rstrip("0") or "0", len(text) - 1)
    if not isfinite(x):
        return "NaN" if x != x else "\u221e" if x > 0 else "-\u221e"
    mantissa, _, exponent = ("%.*g" % (digits, x)).partition("e")
    return mantissa + ("e%d" % int(exponent) if exponent else "")


def _svg_short_numbers(text):
    """A text with its numbers of over 8 significant digits in 7: a bin named
    (-inf, 8.315000000000001] shows as (-inf, 8.315]."""
    import re

    def short(match):
        number = match.group()
        digits = len(number.split("e")[0].strip("-").replace(".", "").lstrip("0"))
        return _svg_number(float(number), 7) if digits > 8 else number
    return re.sub(r"-?\d+\.\d+(?:e[-+]?\d+)?", short, str(text))


def _svg_ticks(lo, hi, count=5):
    """About count round values (1, 2 or 5 times a power of ten) from lo to hi, and
    the step between them."""
    raw = (hi - lo) / max(count, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    first = math.ceil(lo / step - 1e-9)
    return [(first + i) * step for i in range(math.floor(hi / step + 1e-9) - first + 1)], \
        step


def _svg_tick_texts(ticks, step):
    """Tick labels with the digits that tell neighbours apart, all in one notation."""
    fixed = 1e-4 <= max([abs(t) for t in ticks] + [step]) < 1e6 and step >= 1e-6
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    texts = []
    for t in ticks:
        if abs(t) < step * 1e-6:
            texts.append("0")
        elif fixed:
            texts.append("%.*f" % (decimals, t))
        else:
            digits = math.floor(math.log10(abs(t)) + 1e-9) - math.floor(math.log10(step) +
                                                                        1e-9)
            texts.append(_svg_number(t, max(0, digits) + 1))
    return texts


def _svg_span(values):
    """(lo, hi) of the finite values, widened when they are all equal."""
    finite = [v for v in values if isfinite(v)] or [0.0, 1.0]
    lo, hi = min(finite), max(finite)
    if hi - lo <= 1e-12 * max(abs(lo), abs(hi), 1e-300):
        pad = abs(lo) * 0.1 or 1.0
        return lo - pad, hi + pad
    return lo, hi


def _svg_round_top(value):
    """(0, top): top the first round tick at or above value."""
    value = value if isfinite(value) and value > 0 else 1.0
    step = _svg_ticks(0.0, value, 5)[1]
    return 0.0, math.ceil(value / step - 1e-9) * step


# Series i (the class's position in classes_) has a colour, a dash, a marker and a
# hatching, in cycles of 8, 6, 7 and 6: 24 series look different in greyscale.
_SVG_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                "#000000", "#F0E442")          # Okabe and Ito (2008), yellow last
_SVG_DASHES = (None, "7 3", "2 2", "9 3 2 3", "1 3", "12 4")
_SVG_HATCHES = (None, "rotate(45)", "rotate(-45)", "rotate(0)", "rotate(90)", "cross")
_SVG_MARKERS = (None,                                                   # a circle
                ((-1, -1), (1, -1), (1, 1), (-1, 1)),                  # square
                ((0, -1.3), (1.15, 0.8), (-1.15, 0.8)),                # triangle
                ((0, -1.35), (1.1, 0), (0, 1.35), (-1.1, 0)),          # diamond
                ((0, 1.3), (1.15, -0.8), (-1.15, -0.8)),               # down triangle
                ((-1.2, 0), (-0.6, -1.05), (0.6, -1.05), (1.2, 0), (0.6, 1.05),
                 (-0.6, 1.05)),                                        # hexagon
                ((-0.4, -1.2), (0.4, -1.2), (0.4, -0.4), (1.2, -0.4), (1.2, 0.4),
                 (0.4, 0.4), (0.4, 1.2), (-0.4, 1.2), (-0.4, 0.4), (-1.2, 0.4),
                 (-1.2, -0.4), (-0.4, -0.4)))                          # cross


def _svg_colour(i):
    """The colour of series i."""
    return _SVG_COLOURS[i % len(_SVG_COLOURS)]


def _svg_fill(i):
    """The fill of series i: its colour, hatched its own way (solid every sixth); a
    pattern as markup (its id has _SVG_ID), see _element."""
    if _SVG_HATCHES[i % len(_SVG_HATCHES)] is None:
        return _svg_colour(i)
    return _markup("url(#" + _SVG_ID + "hatch%s)", i)


def _svg_defs(series):
    """The hatch patterns of series 0 .. series-1 and an arrow head."""
    patterns = _markup_join(_element(
        "pattern", _element("rect", width=6, height=6, fill=_svg_colour(i)) +
        _element("path", d="M0 3H6M3 0V6" if hatch == "cross" else "M0 3H6",
                 stroke="#ffffff", stroke_width=1.6),
        id=_markup(_SVG_ID + "hatch%s", i), patternUnits="userSpaceOnUse", width=6,
        height=6,
        patternTransform=None if hatch == "cross" else hatch)
        for i, hatch in ((i, _SVG_HATCHES[i % len(_SVG_HATCHES)]) for i in range(series))
        if hatch)
    arrow = _element("marker", _element("path", d="M0 0L8 4L0 8z", fill=_svg_colour(1)),
                     id=_Markup(_SVG_ID + "arrow"), viewBox="0 0 8 8", refX=8, refY=4,
                     markerWidth=6, markerHeight=6, orient="auto")
    return _element("defs", patterns + arrow)


def _svg_marker(i, x, y, r=3.5):
    """The marker of series i at (x, y): a shape per series, outlined in white."""
    shape = _SVG_MARKERS[i % len(_SVG_MARKERS)]
    style = dict(fill=_svg_colour(i), stroke="#ffffff", stroke_width=0.8)
    if shape is None:
        return _element("circle", cx=float(x), cy=float(y), r=float(r), **style)
    return _element("polygon", points=" ".join("%s,%s" % (_svg_px(x + r * u),
                                                          _svg_px(y + r * v))
                                               for u, v in shape), **style)


def _svg_legend(labels, kind="line", notes=None, limit=26):
    """A legend column: a sample and the label of each (series, label), a note after
    the label (below it when long); and the legend's width and height.  kind: "line",
    "bar" or "both"."""
    parts, y, widths = [], 8, [0]
    for i, label in labels:
        x, note = 0.0, (notes or {}).get(i, "")
        if kind != "line":
            parts.append(_element("rect", x=4.0, y=y - 6.0, width=18, height=12,
                                  fill=_svg_fill(i), stroke=_SVG_INK, stroke_width=0.6))
            x = 0.0 if kind == "bar" else 26.0
        if kind != "bar":
            parts.append(_element("line", x1=x, y1=float(y), x2=x + 26, y2=float(y),
                                  stroke=_svg_colour(i), stroke_width=2.2,
                                  stroke_dasharray=_SVG_DASHES[i % len(_SVG_DASHES)]) +
                         _svg_marker(i, x + 13, y))
        inline = len(note) <= 12
        shown = _svg_clip(label, limit) + (note if inline else "")
        parts.append(_element("text", _element("title", label) + shown, x=x + 32,
                              y=y + 4.0))
        widths.append(x + 32 + _svg_text_width(shown))
        if not inline:
            y += 14
            parts.append(_svg_text(x + 32, y + 4, note.strip(), 10, fill="#555555"))
            widths.append(x + 32 + _svg_text_width(note, 10))
        y += 18
    return _markup_join(parts), max(widths) + 12, y - 8


def _svg_document(width, height, body, title, series=0):
    """An SVG document (_Markup): a title for screen readers, the patterns of the
    series, a white ground and the body; its ids prefixed by a hash of the whole (a
    U+E000 in a text is a character reference by then: only the ids change)."""
    import zlib
    svg = _element("svg", _element("title", title) + _svg_defs(series) +
                   _element("rect", width="100%", height="100%", fill="#ffffff") + body,
                   xmlns=_SVG_NAMESPACE, width=float(width), height=float(height),
                   viewBox="0 0 %s %s" % (_svg_px(width), _svg_px(height)), role="img",
                   font_family=_SVG_FONT, font_size=12, fill=_SVG_INK)
    text = svg.text
    return _Markup(text.replace(_SVG_ID, "nb%08x-" % zlib.crc32(text.encode("utf-8"))))


def _svg_message(title, message, width=420, height=80):
    """A small picture that says why there is nothing to draw."""
    return _svg_document(width, height, _svg_text(12, 22, title, 13, limit=60,
                                                  font_weight="bold") +
                         _svg_text(12, min(50, height - 8), message, fill="#555555"),
                         title)


class _SvgFrame:
    """A rectangle of a picture where data coordinates map linearly to pixels."""

    __slots__ = ("left", "top", "width", "height", "x_range", "y_range")

    def __init__(self, left, top, width, height, x_range, y_range):
        self.left, self.top, self.width, self.height = left, top, width, height
        self.x_range, self.y_range = x_range, y_range

    def x(self, value):
        """The pixel column of a value."""
        lo, hi = self.x_range
        return self.left + (value - lo) / (hi - lo) * self.width

    def y(self, value):
        """The pixel row of a value, held inside the frame (a curve that leaves it
        runs along its edge)."""
        lo, hi = self.y_range
        value = min(max(value, lo), hi)
        return self.top + self.height - (value - lo) / (hi - lo) * self.height


def _svg_tick_count(width, lo, hi):
    """How many x ticks to ask for: as many as fit without their labels touching."""
    for count in range(max(2, int(width // 45)), 2, -1):
        ticks, step = _svg_ticks(lo, hi, count)
        widest = max([_svg_text_width(t, 11) for t in _svg_tick_texts(ticks, step)] + [0])
        if widest + 10 < step / (hi - lo) * width:
            return count
    return 2


def _svg_axes(frame, x_label, y_label, small=False, x_numeric=True, y_numeric=True):
    """The frame, its grid lines, ticks and axis titles."""
    parts, size, bottom = [], 10 if small else 11, frame.top + frame.height
    ticks, step = _svg_ticks(*frame.y_range, 3 if small else 5) if y_numeric else ([], 1)
    for value, label in zip(ticks, _svg_tick_texts(ticks, step)):
        y = frame.y(value)
        parts.append(_element("line", x1=float(frame.left), y1=y,
                              x2=float(frame.left + frame.width), y2=y, stroke="#e3e3e3") +
                     _svg_text(frame.left - 5, y, label, size, "end", class_="nb-tick-y",
                               dominant_baseline="central"))
    if x_numeric:
        ticks, step = _svg_ticks(*frame.x_range,
                                 _svg_tick_count(frame.width, *frame.x_range))
        for value, label in zip(ticks, _svg_tick_texts(ticks, step)):
            x = frame.x(value)
            parts.append(_element("line", x1=x, y1=float(bottom), x2=x, y2=bottom + 4.0,
                                  stroke="#555555") +
                         _svg_text(x, bottom + 16, label, size, "middle",
                                   class_="nb-tick-x"))
    parts.append(_element("rect", x=float(frame.left), y=float(frame.top),
                          width=float(frame.width), height=float(frame.height), fill="none",
                          stroke="#888888"))
    if x_label and not small:
        parts.append(_svg_text(frame.left + frame.width / 2, bottom + 36, x_label, 12,
                               "middle", limit=70))
    if y_label and not small:
        middle = frame.top + frame.height / 2
        parts.append(_svg_text(14, middle, y_label, 12, "middle",
                               transform="rotate(-90 14 %s)" % _svg_px(middle)))
    return _markup_join(parts)


def _svg_chart(title, classes, y_label, y_range, draw, x_range=None, x_label=None,
               width=540, height=300, small=False, notes=None, listed=None, plot_width=0,
               below=0, kind="line"):
    """A chart: the frame and axes, draw(frame) on them, the title, and on the right
    a legend of the classes (those in listed, when given); small: neither."""
    labels = [(i, c) for i, c in enumerate(classes) if listed is None or i in listed]
    legend, legend_width, legend_height = _svg_legend(labels, kind, notes)
    legend_room = 0 if small else legend_width + 16
    ticks, step = _svg_ticks(*y_range, 3 if small else 5)
    left = (8 if small else 30) + max(_svg_text_width(t, 11)
                                      for t in _svg_tick_texts(ticks, step))
    top = 10 if small else 30
    height = height if small else max(height, top + 60 + legend_height)
    plot_width = max(plot_width, width - left - legend_room - 10,
                     0 if small else 0.55 * width)
    frame = _SvgFrame(left, top, plot_width, height - top - (22 if small else 48),
                      x_range or (0.0, 1.0), y_range)
    width = left + plot_width + legend_room + 10
    body = _svg_axes(frame, x_label, y_label, small, x_range is not None) + draw(frame)
    if not small:
        body += _svg_text(left, 18, title, 13, limit=int((width - left) / 7.5),
                          font_weight="bold")
        body += _element("g", legend, class_="nb-legend", transform="translate(%s %s)"
                         % (_svg_px(width - legend_room + 6), top))
    return _svg_document(width, height + below, body, title, len(classes))


def _svg_along(points, spacing, offset):
    """Places every ``spacing`` pixels along a polyline of pixel points, the first
    ``offset`` pixels in: markers as far apart on a steep peak as on a slope."""
    places, travelled, wanted = [], 0.0, offset
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        step = hypot(x1 - x0, y1 - y0)
        while step and travelled + step >= wanted:
            t = (wanted - travelled) / step
            places.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0)))
            wanted += spacing
        travelled += step
    return places


def _svg_line_chart(title, curves, classes, x_label, y_label, y_range, notes=None,
                    small=False, width=540, height=300, under=None, listed=None,
                    plot_width=0):
    """Curves {series: (xs, ys)}, a marker every 60 pixels along each (none where it
    lies along 0, staggered between the series); under(frame) draws first."""
    def draw(frame):
        body = [under(frame) if under else ""]
        floor = frame.y(0.03 * frame.y_range[1])
        for i, (xs, ys) in sorted(curves.items()):
            shown = [(frame.x(x), frame.y(y)) for x, y in zip(xs, ys) if y == y]
            line = _element("polyline", points=" ".join(
                "%s,%s" % (_svg_px(x), _svg_px(y)) for x, y in shown),
                fill="none", stroke=_svg_colour(i), stroke_width=1.6 if small else 2.2,
                stroke_linejoin="round", stroke_dasharray=_SVG_DASHES[i % len(_SVG_DASHES)])
            markers = "" if small else _markup_join(
                _svg_marker(i, x, y) for x, y in _svg_along(shown, 60.0, 8 + 23 * i % 60)
                if y < floor)
            body.append(_element("g", line + markers, class_="nb-series", data_series=i,
                                 data_label=classes[i]))
        return _markup_join(body)
    x_range = _svg_span([x for xs, _ in curves.values() for x in xs])
    return _svg_chart(title, classes, y_label, y_range, draw, x_range, x_label, width,
                      height, small, notes, listed, plot_width)


def _svg_bar_chart(title, groups, values, classes, y_label, notes=None, small=False,
                   width=540, height=300):
    """Grouped bars: in each group a bar per series, values {series: [heights]}; group
    names turned when they do not fit side by side."""
    series = sorted(values)
    y_range = _svg_round_top(max(v for i in series for v in values[i]))
    plot_width = min(1400, len(groups) * len(series) * 5 + len(groups) * 8)
    limit, size = (12, 10) if small else (24, 11)
    widest = max(_svg_text_width(_svg_clip(g, limit), size) for g in groups)
    turned = widest > max(plot_width, width * (0.8 if small else 0.55)) / len(groups) - 6

    def draw(frame):
        group_width = frame.width / len(groups)
        bar_width = group_width * 0.8 / len(series)
        body, base = [], frame.top + frame.height
        for g, group in enumerate(groups):
            x0 = frame.left + g * group_width + group_width * 0.1
            for n, i in enumerate(series):
                y = frame.y(values[i][g])
                tip = _element("title", _xml_text("%s, %s: %s" % (
                    classes[i], group, _svg_number(values[i][g]))))
                body.append(_element("rect", tip, x=x0 + n * bar_width, y=y,
                                     width=bar_width, height=base - y, fill=_svg_fill(i),
                                     stroke=_SVG_INK,
                                     stroke_width=0.4 if bar_width < 6 else 0.7,
                                     class_="nb-bar", data_series=i, data_group=g))
            centre = frame.left + (g + 0.5) * group_width
            if turned:
                body.append(_svg_text(centre + 4, base + 12, group, size, "end", limit,
                                      class_="nb-group", transform="rotate(-40 %s %s)"
                                      % (_svg_px(centre + 4), _svg_px(base + 12))))
            else:
                body.append(_svg_text(centre, base + 16, group, size, "middle", limit,
                                      class_="nb-group"))
        return _markup_join(body)
    below = (widest * 0.64 if turned else 0) - (0 if small else 20)
    return _svg_chart(title, classes, y_label, y_range, draw, None, None, width, height,
                      small, notes, plot_width=plot_width, below=below, kind="bar")


def _svg_heat_colour(fraction):
    """A sequential blue for a fraction in [0, 1], darker for larger (greyscale-safe)."""
    return "#%02x%02x%02x" % tuple(round(a + (b - a) * fraction)
                                   for a, b in zip((247, 251, 255), (8, 48, 107)))


def _svg_heat_map(title, rows, columns, shade, text, tip, axes, cell=(40.0, 40.0),
                  diagonal=False):
    """A heat map: cell (r, c) shaded by shade(r, c) in [0, 1], labelled text(r, c),
    hover tip(r, c); axes: (row title, column title); the diagonal outlined if asked."""
    cell_width, cell_height = cell
    room = max(_svg_text_width(_svg_clip(label, 22), 11) for label in rows) + 16
    lengths = [_svg_text_width(_svg_clip(label, 22), 11) for label in columns]
    upright = max(lengths) < cell_width - 4
    left, top = room + 26, (34 if upright else max(lengths) * 0.8 + 12) + 40
    width = max(left + len(columns) * cell_width + (20 if upright else lengths[-1] * 0.7),
                _svg_text_width(title, 13) + 30)
    middle = top + len(rows) * cell_height / 2
    body = [_svg_text(12, 18, title, 13, font_weight="bold"),
            _svg_text(left + len(columns) * cell_width / 2, 36, axes[1], 12, "middle"),
            _svg_text(14, middle, axes[0], 12, "middle",
                      transform="rotate(-90 14 %s)" % _svg_px(middle))]
    for r, label in enumerate(rows):
        y = top + r * cell_height
        body.append(_svg_text(left - 6, y + cell_height / 2 + 4, label, 11, "end", 22))
        for c in range(len(columns)):
            x, share, outlined = left + c * cell_width, shade(r, c), diagonal and r == c
            body.append(_element("rect", _element("title", _xml_text(tip(r, c))), x=x, y=y,
                                 width=cell_width, height=cell_height,
                                 fill=_svg_heat_colour(share),
                                 stroke=_SVG_INK if outlined else "#ffffff",
                                 stroke_width=1.6 if outlined else 1.0, class_="nb-cell",
                                 data_row=r, data_column=c) +
                        _svg_text(x + cell_width / 2, y + cell_height / 2 + 4, text(r, c),
                                  10, "middle",
                                  fill="#ffffff" if share > 0.5 else _SVG_INK))
    for c, label in enumerate(columns):
        x = left + (c + 0.5) * cell_width
        body.append(_svg_text(x, top - 6, label, 11, "middle", 22) if upright else
                    _svg_text(x + 4, top - 6, label, 11, "start", 22,
                              transform="rotate(-50 %s %s)" % (_svg_px(x + 4),
                                                               _svg_px(top - 6))))
    return _svg_document(width, top + len(rows) * cell_height + 20, _markup_join(body),
                         title)


# -- what the model holds, for the pictures ------------------------------------------

def _picture_tables(model, call):
    """Each feature's table as naive Bayes tables it: for AODE and the networks their
    naive-Bayes view, P(x_j | c) alone."""
    compiled = model._model(call)
    naive = getattr(compiled, "naive_tables", None)
    return naive() if naive is not None else compiled.tables()


def _picture_log_densities(model, feature, xs):
    """{class index: [log p(x | c) for x in xs]}, by the feature's compiled scorer (NaN
    where it refuses x).  For a kind that transforms its values (read_value, a
    _Converted scorer) the xs are of what the distribution is of (log x), as its
    table's are: the density drawn is the distribution's own."""
    compiled = model._model("plot()")
    scorer = compiled.scorers[compiled.names.index(feature)]
    while isinstance(scorer, _Converted):
        scorer = scorer.scorer
    refused = (math.nan,) * len(compiled.classes)
    vectors = []
    for x in xs:
        try:
            vectors.append(scorer[x])
        except _BadValue:
            vectors.append(refused)
    return dict(enumerate(zip(*vectors)))


def _picture_recorded_values(model, feature):
    """{class index: its distinct training values} of a kde feature (its record)."""
    counts = model._state.statistics.features[feature].stats.counts
    return {i: sorted(counts[label]) for i, label in enumerate(model.classes_)
            if counts.get(label)}


def _picture_parents(model):
    """{feature: [the features it depends on besides the class]}, the class's own
    under None; None for naive Bayes.  In AODE each feature in turn is the parent of
    all the others (AutoBayes: its leading member's structure); a network's arcs are
    its summary()["parents"]; AutoBayes' correlated member joins every number to
    every other."""
    compiled = model._model("plot()")
    leader = compiled.leader() if isinstance(compiled, _MixtureModel) else compiled
    names = [n for n, kind in model.feature_kinds_.items() if kind != "ignore"]
    if isinstance(leader, _AODEModel):
        return {name: [other for other in names if other != name] for name in names}
    if isinstance(leader, _CorrelatedModel):
        numbers = {leader.names[j] for j in leader.numbers}
        return {name: [other for other in names if other != name and other in numbers]
                if name in numbers else [] for name in names}
    parents = model.summary().get("parents")
    if parents is None:
        return None
    return {name: [p for p in others if p is not None] for name, others in parents.items()}


# -- one plot per kind of table: what to draw, or None when nothing is known ---------
#
# Each returns (y label, {series: (xs, ys)}) for curves, or (y label, groups,
# {series: [height per group]}) for bars; a series is the class's position.

_SVG_GRID = 240                   # steps of a density curve


def _svg_densities(model, feature, grid, present):
    """{series: (grid, p(x | c))} of the classes present."""
    logs = _picture_log_densities(model, feature, grid)
    return {i: (grid, [INF if v >= 700 else exp(v) for v in logs[i]]) for i in present}


def _svg_grid(lo, hi, extra=()):
    """_SVG_GRID + 1 even steps from lo to hi, and the extra points between."""
    return sorted(set([lo + (hi - lo) * k / _SVG_GRID for k in range(_SVG_GRID + 1)] +
                      [x for x in extra if lo <= x <= hi]))


def _svg_gaussian(model, feature, table):
    """Normal densities over each class's mean +- 4 standard deviations (the mean and
    +- 1/2, 1 and 2 sd on the grid, so that narrow peaks keep their shape)."""
    index = {label: i for i, label in enumerate(model.classes_)}
    spreads = {index[c]: (m, sqrt(table["variance"][c])) for c, m in table["mean"].items()}
    if not spreads:
        return None
    lo, hi = _svg_span([m - 4 * s for m, s in spreads.values()] +
                       [m + 4 * s for m, s in spreads.values()])
    grid = _svg_grid(lo, hi, [m + s * k for m, s in spreads.values()
                              for k in (-2, -1, -0.5, 0, 0.5, 1, 2)])
    return "density p(x | class)", _svg_densities(model, feature, grid, spreads)


def _svg_kde(model, feature, table):
    """Kernel densities over the training values +- 3 bandwidths, the values (up to
    2,000) on the grid: narrow peaks keep their shape, a point mass shows at its value."""
    values = _picture_recorded_values(model, feature)
    if not values:
        return None
    bandwidth = [table["bandwidth"].get(label, 0.0) for label in model.classes_]
    h = max(bandwidth)
    lo, hi = _svg_span([min(min(v) for v in values.values()) - 3 * h,
                        max(max(v) for v in values.values()) + 3 * h])
    recorded = [v for vs in values.values() for v in vs]
    if len(recorded) > 2000:              # a long record: its point masses only
        recorded = [v for i, vs in values.items() if not bandwidth[i] for v in vs]
    grid = _svg_grid(lo, hi, recorded)
    return "density p(x | class)", _svg_densities(model, feature, grid, values)


def _svg_poisson(model, feature, table):
    """Poisson probabilities at 0, 1, 2 ... up to the largest rate + 4 sd."""
    index = {label: i for i, label in enumerate(model.classes_)}
    rates = {index[c]: rate for c, rate in table.get("rate", {}).items()}
    if not rates:
        return None
    top = max(math.ceil(rate + 4 * sqrt(rate) + 1) for rate in rates.values())
    counts = list(range(0, top + 1, max(1, top // 200)))
    return "P(x | class)", _svg_densities(model, feature, counts, rates)


def _svg_interval(cuts, b):
    """Bin b between the cut points as text: <= c1, (c1, c2], ..., > ck."""
    if not cuts:
        return "all values"
    if b == 0:
        return "\u2264 %s" % _svg_number(cuts[0], 7)
    if b == len(cuts):
        return "> %s" % _svg_number(cuts[-1], 7)
    return "(%s, %s]" % (_svg_number(cuts[b - 1], 7), _svg_number(cuts[b], 7))


def _svg_discretized(model, feature, table):
    """P(bin | class): a group of bars per bin between the cut points."""
    if not table.get("probabilities"):
        return None
    index, cuts = {label: i for i, label in enumerate(model.classes_)}, table["cuts"]
    return ("P(bin | class)", [_svg_interval(cuts, b) for b in range(len(cuts) + 1)],
            {index[c]: list(p) for c, p in table["probabilities"].items()})


def _svg_categorical(model, feature, table):
    """P(value | class) of the values of largest mean probability (as many as fit, in
    table order), the rest summed as "other"."""
    probabilities = table.get("probabilities") or {}
    values = list(dict.fromkeys(v for p in probabilities.values() for v in p))
    if not values:
        return None
    limit = max(3, min(12, 160 // len(probabilities)))
    others = len(values) > limit
    if others:
        mean = {v: sum(p.get(v, 0.0) for p in probabilities.values()) for v in values}
        kept = set(sorted(values, key=lambda v: -mean[v])[:limit - 1])
        values = [v for v in values if v in kept]
    index = {label: i for i, label in enumerate(model.classes_)}
    heights = {index[c]: [p.get(v, 0.0) for v in values] +
               ([max(0.0, 1.0 - sum(p.get(v, 0.0) for v in values))] if others else [])
               for c, p in probabilities.items()}
    return "P(value | class)", [str(v) for v in values] + ["other"] * others, heights


def _svg_words(model, feature, table):
    """P(word | class) of the words that most favour each class: those of largest
    P(w | c) log(P(w | c) / max over the other classes P(w | c'))."""
    probabilities = table.get("probabilities") or {}
    if not any(probabilities.values()):
        return None
    per_class = max(1, 16 // len(probabilities))
    chosen = []
    for c, p in probabilities.items():
        rivals = [o for d, o in probabilities.items() if d != c]
        gain = {w: q * log(q / max([o.get(w, 0.0) for o in rivals] + [1e-300]))
                for w, q in p.items() if q > 0}
        chosen += [w for w in sorted(gain, key=gain.get, reverse=True)
                   if w not in chosen][:per_class]
    index = {label: i for i, label in enumerate(model.classes_)}
    return ("P(word | class)", chosen,
            {index[c]: [p.get(w, 0.0) for w in chosen] for c, p in probabilities.items()})


def _svg_parameters(model, feature, table):
    """The numbers each class's density takes (a _DensityScorer's table) as a grid,
    a row per class, shaded from the smallest to the largest: what a distribution
    without a picture of its own holds (the numbers may be of any sign)."""
    parameters = table.get("parameters") or {}
    if not parameters:
        return None
    rows = [label for label in model.classes_ if label in parameters]
    count = max(map(len, parameters.values()))
    numbers = [[float(p) for p in parameters[label]] + [math.nan] * (count - len(
        parameters[label])) for label in rows]
    finite = [x for row in numbers for x in row if isfinite(x)] or [0.0]
    low, spread = min(finite), (max(finite) - min(finite)) or 1.0
    return _svg_heat_map(
        _svg_title(feature, table), [_shown(label, 22) for label in rows],
        ["parameter %d" % (k + 1) for k in range(count)],
        lambda r, c: (numbers[r][c] - low) / spread if isfinite(numbers[r][c]) else 0.0,
        lambda r, c: _svg_number(numbers[r][c], 4),
        lambda r, c: "%s, parameter %d: %s" % (rows[r], c + 1, _svg_number(numbers[r][c])),
        ("class", "the parameters of each class's density"), (64.0, 22.0))


# The pictures, by the table's distribution (a kind's own name when it has none).
_SVG_KINDS = {"gaussian": _svg_gaussian, "kde": _svg_kde, "poisson": _svg_poisson,
              "discretized": _svg_discretized, "categorical": _svg_categorical,
              "text": _svg_words}


def _svg_drawer(table):
    """The picture of a table: by its distribution, or its kind; a table of a
    _DensityScorer's parameters as bars of them."""
    draw = _SVG_KINDS.get(table.get("distribution", table["kind"]))
    if draw is None and "parameters" in table:
        return _svg_parameters
    return draw


def _svg_title(feature, table):
    """'income (lognormal: gaussian of log x)', 'colour (categorical)'."""
    kind = table["kind"]
    if "distribution" in table:
        kind = "%s: %s" % (kind, table["distribution"])
    if "of" in table:
        kind = "%s of %s" % (kind, table["of"])
    return "%s (%s)" % (feature, kind)


def _svg_plot(model, feature, tables, width=540, height=300, small=False):
    """The SVG of one feature (see _Classifier.plot); tables: _picture_tables'.  With
    more than 8 classes, bars become a heat map; small: a thumbnail without title
    and legend."""
    try:
        table = tables[feature]
    except (KeyError, TypeError):
        raise NaiveBayesError("plot(): feature %s is not one of the model's features (%s)"
                              % (_shown(feature, 40), _svg_clip(", ".join(map(repr, tables)),
                                                                60)), call="plot()") from None
    title = _svg_title(feature, table)
    draw = _svg_drawer(table)
    drawn = draw and draw(model, feature, table)
    if isinstance(drawn, _Markup):        # a finished picture (a grid of parameters)
        return drawn
    if not drawn:
        why = ("ignored by the model" if table["kind"] == "ignore" else
               "no values in training" if draw else "no picture of this kind")
        return _svg_message(title, why, *((width, 40) if small else (420, 80)))
    classes = model.classes_
    notes = {i: " (no values)" for i in range(len(classes)) if i not in drawn[-1]}
    if len(drawn) == 2:
        y_label, curves = drawn
        peaks = sorted(max([y for y in ys if y == y] + [0.0]) for _, ys in curves.values())
        while len(peaks) > 1 and not peaks[-1] <= 4 * peaks[-2]:
            peaks.pop()               # a peak over 4 times the next runs off the top
        y_range = _svg_round_top(peaks[-1])
        for i, (xs, ys) in curves.items():
            peak = max([y for y in ys if y == y] + [0.0])
            if peak > y_range[1]:
                notes[i] = " (peak %s at %s)" % (_svg_number(peak),
                                                 _svg_number(xs[ys.index(peak)]))
        x_label = str(feature) if "of" not in table else "%s (x: %s)" % (table["of"],
                                                                          feature)
        return _svg_line_chart(title, curves, classes, x_label, y_label, y_range,
                               notes, small, width, height)
    y_label, groups, heights = drawn
    if len(heights) > 8 and not small:        # many classes: bars would be a thicket
        rows = sorted(heights)
        largest = max(max(heights[i]) for i in rows) or 1.0
        cell = max(38.0, min(90.0, max(_svg_text_width(_svg_clip(g, 22), 11) for g in groups)
                             + 8))
        return _svg_heat_map(
            "%s: %s" % (title, y_label), [classes[i] for i in rows], groups,
            lambda r, c: heights[rows[r]][c] / largest,
            lambda r, c: "%.2f" % heights[rows[r]][c],
            lambda r, c: "%s, %s: %s" % (classes[rows[r]], groups[c],
                                         _svg_number(heights[rows[r]][c])),
            ("class", "shade: probability, darkest = %s" % _svg_number(largest, 3)),
            (cell, 20.0))
    return _svg_bar_chart(title, groups, heights, classes, y_label, notes, small, width,
                          height)


def _svg_structure(model):
    """A node-link diagram: the class in the middle with a light line to every
    feature, an arrow from each of a feature's other parents (a chord bent to its
    left, clear of the class), and in AODE a light chord between every pair."""
    parents, everything = _picture_parents(model) or {}, isinstance(model, AODE)
    names = [n for n, kind in model.feature_kinds_.items() if kind != "ignore"]
    kind = type(model).__name__
    caption = ("%s: each feature in turn is the parent of all the others" % kind
               if everything else "%s: the class is a parent of every feature; arrows "
               "show the other parents" % kind if parents else
               "%s: every feature depends on the class only" % kind)
    radius = max(110.0, min(260.0, len(names) * 14.0))
    room = max([_svg_text_width(_svg_clip(name, 18)) for name in names] + [30]) + 16
    width = max(560, 2 * (radius + room) + 20, _svg_text_width(caption, 14) + 24)  # bold
    height = 2 * (radius + 34) + 40
    cx, cy = width / 2, height / 2 + 14
    where = {None: (cx, cy, 24.0)}                # centre and radius of each node
    for k, name in enumerate(names):
        turn = 2 * math.pi * k / len(names)
        where[name] = (cx + radius * math.sin(turn), cy - radius * math.cos(turn), 6.0)
    spokes, arcs, nodes = [], [], []
    for k, name in enumerate(names + [None]):
        x, y, r = where[name]
        if name is not None:
            spokes.append(_element("line", x1=cx, y1=cy, x2=x, y2=y, stroke="#cccccc"))
        for parent in parents.get(name, ()):
            if parent not in where or everything and names.index(parent) < k:
                continue
            px, py, _ = where[parent]
            bend = 0.0 if everything else 0.3     # AODE's chords: straight, every pair
            qx, qy = (px + x) / 2 + bend * (py - y), (py + y) / 2 + bend * (x - px)
            back = (r + 2) / max(hypot(x - qx, y - qy), 1e-9)   # stop at the node's edge
            arcs.append(_element(
                "path", d="M%s %sQ%s %s %s %s" % tuple(map(_svg_px, (
                    px, py, qx, qy, x - (x - qx) * back, y - (y - qy) * back))),
                fill="none", stroke="#999999" if everything else _svg_colour(1),
                stroke_width=1.0 if everything else 1.6,
                marker_end=None if everything else _Markup("url(#" + _SVG_ID + "arrow)"),
                class_="nb-edge", data_from=parent, data_to=name))
        if name is None:
            continue
        side = "start" if x > cx + 1 else "end" if x < cx - 1 else "middle"
        nodes.append(_element("circle", cx=x, cy=y, r=r, fill="#ffffff", stroke=_SVG_INK,
                              stroke_width=1.5, class_="nb-node", data_feature=name) +
                     _svg_text(x + {"start": 10, "end": -10, "middle": 0}[side],
                               y + (4 if side != "middle" else -12 if y < cy else 20),
                               name, 12, side, 18))
    nodes.append(_element("circle", cx=cx, cy=cy, r=24.0, fill=_svg_colour(0)) +
                 _svg_text(cx, cy + 4, "class", 12, "middle", fill="#ffffff",
                           font_weight="bold"))
    return _svg_document(width, height, _svg_text(12, 20, caption, 13, font_weight="bold") +
                         _markup_join(spokes + arcs + nodes), "Structure: " + caption)


# -- evaluation pictures: confusion matrix, ROC curves, reliability, explanations ----

def _svg_roc_points(scores, positives):
    """The ROC curve [(false positive rate, true positive rate)] and the area under
    it; tied scores make one diagonal step, so the area is the Mann-Whitney U / (P N)."""
    pairs = sorted(zip(scores, positives), key=lambda pair: -pair[0])
    p_total = sum(positives)
    n_total = len(pairs) - p_total
    points, tp, fp, area, k = [(0.0, 0.0)], 0, 0, 0.0, 0
    while k < len(pairs):
        score, step_tp, step_fp = pairs[k][0], 0, 0
        while k < len(pairs) and pairs[k][0] == score:
            step_tp, step_fp, k = step_tp + pairs[k][1], step_fp + (not pairs[k][1]), k + 1
        area += step_fp * (tp + step_tp / 2)
        tp, fp = tp + step_tp, fp + step_fp
        points.append((fp / n_total, tp / p_total))
    return points, area / (p_total * n_total)


def _svg_roc(classes, probabilities, truths):
    """ROC curves: of the second class when there are two, else of each class against
    the rest, with the area under each (AUC) in the legend."""
    curves, notes, areas = {}, {}, []
    for i in [1] if len(classes) == 2 else range(len(classes)):
        positives = [t == classes[i] for t in truths]
        if 0 < sum(positives) < len(positives):
            points, area = _svg_roc_points([p[i] for p in probabilities], positives)
            curves[i] = ([x for x, _ in points], [y for _, y in points])
            notes[i] = " (AUC %.3f)" % area
            areas.append(area)
    if not curves:
        return _svg_message("ROC curve", "needs rows of at least two classes")
    title = ("ROC curve, positive class %s" % _svg_clip(classes[1], 30) if len(classes) == 2
             else "ROC curves, each class against the rest (mean AUC %.3f)"
             % (sum(areas) / len(areas)))

    def chance(frame):
        return _element("line", x1=frame.x(0.0), y1=frame.y(0.0), x2=frame.x(1.0),
                        y2=frame.y(1.0), stroke="#999999", stroke_dasharray="4 4")
    return _svg_line_chart(title, curves, classes, "false positive rate",
                           "true positive rate", (0.0, 1.0), notes, width=560, height=380,
                           under=chance, listed=curves, plot_width=340)


def _svg_reliability(classes, probabilities, truths, bins=10):
    """Reliability diagram: per bin of predicted probability, the mean prediction
    against the observed frequency (marker area ~ rows), the rows per bin below."""
    if len(classes) == 2:
        pairs = [(p[1], t == classes[1]) for p, t in zip(probabilities, truths)]
        what = "P(%s)" % _svg_clip(classes[1], 30)
    else:
        pairs = [(max(p), t == classes[p.index(max(p))])
                 for p, t in zip(probabilities, truths)]
        what = "P(predicted class)"
    groups = [[] for _ in range(bins)]
    for p, hit in pairs:
        groups[min(bins - 1, int(p * bins))].append((p, hit))
    most = max(len(g) for g in groups)
    curve = _SvgFrame(56, 34, 300, 300, (0.0, 1.0), (0.0, 1.0))
    counts = _SvgFrame(56, 368, 300, 80, (0.0, 1.0), _svg_round_top(most * 1.3))
    title = "Reliability: observed frequency against %s" % what
    body = [_svg_text(12, 18, title, 13, font_weight="bold"),
            _svg_axes(curve, None, "observed frequency"),
            _svg_axes(counts, "mean predicted %s, bins of %g" % (what, 1 / bins), "rows"),
            _element("line", x1=curve.x(0.0), y1=curve.y(0.0), x2=curve.x(1.0),
                     y2=curve.y(1.0), stroke="#999999", stroke_dasharray="4 4")]
    points = []
    for b, group in enumerate(groups):
        x0, top = counts.x(b / bins), counts.y(len(group))
        body.append(_element("rect", x=x0 + 1, y=top, width=28.0,
                             height=counts.y(0.0) - top, fill="#bbbbbb", class_="nb-count"))
        if group:
            points.append((sum(p for p, _ in group) / len(group),
                           sum(h for _, h in group) / len(group), len(group)))
            body.append(_svg_text(x0 + 15, top - 3, len(group), 9, "middle"))
    body.append(_element("polyline", points=" ".join(
        "%s,%s" % (_svg_px(curve.x(m)), _svg_px(curve.y(o))) for m, o, _ in points),
        fill="none", stroke=_svg_colour(0), stroke_width=1.6))
    for m, o, n in points:
        body.append(_element("g", _element("title", _xml_text(
            "mean prediction %.3f, observed %.3f, %d rows" % (m, o, n))) +
            _svg_marker(0, curve.x(m), curve.y(o), 2.5 + 5 * sqrt(n / most)),
            class_="nb-bin", data_mean=repr(m), data_observed=repr(o), data_count=n))
    return _svg_document(max(380, _svg_text_width(title, 13) + 30), 498,
                         _markup_join(body), title)


def _svg_waterfall(parts, classes, limit=12):
    """Waterfall bars of log P(best) / P(runner-up), parts as _log_odds_parts gives
    them: each part moves the running sum (parts of 0 left out); the last bar is the
    total."""
    items = [item for item in parts["items"] if isfinite(item[3]) and item[3]]
    infinite = [item[0] for item in parts["items"] if not isfinite(item[3])]
    if len(items) > limit:
        rest = items[limit - 1:]
        items = items[:limit - 1] + [("%d other parts" % len(rest), "", "",
                                      fsum(v for *_, v in rest))]
    labels = [_svg_clip("%s%s%s" % (f, s, _svg_short_numbers(w)), 44) for f, s, w, _ in items]
    total, running, spans = fsum(v for *_, v in items), 0.0, []
    for *_, v in items:
        spans.append((running, running + v))
        running += v
    lo, hi = _svg_span([0.0, total] + [x for s in spans for x in s])
    room = max([_svg_text_width(label, 11) for label in labels] + [100]) + 16
    width = max(560, room + 380)
    frame = _SvgFrame(room, 46, width - room - 30, 20 * (len(items) + 1),
                      (lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.16), (0.0, 1.0))
    best, runner = parts["predicted"], parts["runner_up"]
    ours, theirs = classes.index(best), classes.index(runner)
    key, key_width, _ = _svg_legend([(ours, "for %s" % _svg_clip(best, 24))], "bar")
    body = [_svg_text(12, 18, "log P(%s) / P(%s) = %s, part by part" % (
        _svg_clip(best, 24), _svg_clip(runner, 24), _svg_number(total)), 13, font_weight="bold"),
        _element("g", key, transform="translate(%s 24)" % _svg_px(room - 4)),
        _element("g", _svg_legend([(theirs, "for %s" % _svg_clip(runner, 24))], "bar")[0],
                 transform="translate(%s 24)" % _svg_px(room + key_width)),
        _svg_axes(frame, "contribution to the log odds (nats)", None, y_numeric=False),
        _element("line", x1=frame.x(0.0), y1=float(frame.top), x2=frame.x(0.0),
                 y2=float(frame.top + frame.height), stroke="#555555")]
    for k, (label, (a, b)) in enumerate(zip(labels + ["total"], spans + [(0.0, total)])):
        y, (x0, x1) = frame.top + k * 20 + 3, sorted((frame.x(a), frame.x(b)))
        fill = _SVG_INK if k == len(items) else _svg_fill(ours if b >= a else theirs)
        tip = _element("title", _xml_text("%s: %+.4f" % (label, b - a)))
        body.append(_element("rect", tip, x=x0, y=float(y), width=max(x1 - x0, 1.0),
                             height=14.0, fill=fill, class_="nb-step",
                             data_value=repr(b - a)) +
                    _svg_text(room - 8, y + 11, label, 11, "end",
                              font_weight="bold" if k == len(items) else None) +
                    _svg_text(x1 + 4, y + 11, "%+.3g" % (b - a), 10))
    if infinite:
        body.append(_svg_text(room, frame.top + frame.height + 50, "not drawn (infinite): "
                              + ", ".join(map(str, infinite)), 11, limit=60))
    return _svg_document(width, frame.top + frame.height + 60, _markup_join(body),
                         "Explanation", len(classes))
