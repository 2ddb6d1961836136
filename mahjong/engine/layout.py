"""Layouts: the KMahjongg `.layout` reader and the per-layout geometry tables.

A layout is a tuple of positions (x, y, z) in half-tile units; a tile covers cells
x..x+1, y..y+1 of layer z. Tiles are numbered in file order (layer, row, column) and
every other part of the engine refers to them by that index.

For speed every relation is a bitmask over tile indices (Python ints), so that the
free test of docs/RULES.md §Freeness is a handful of integer operations on the `alive` bitmask:
    free(i) = not alive & covers[i] and (not alive & left[i] or not alive & right[i])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .tiles import FULL_SET_SIZE

MAGIC_V10 = "kmahjongg-layout-v1.0"
MAGIC_V11 = "kmahjongg-layout-v1.1"
V10_SIZE = (32, 16, 5)
MAX_SIDE = 1000  # a sanity bound on w, h and d so a typo cannot eat the memory


class LayoutError(ValueError):
    """A malformed layout; the message names the line (when there is one) and the fault."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


@dataclass(frozen=True, eq=False)
class Layout:
    name: str
    positions: tuple[tuple[int, int, int], ...]
    number: int | None = None  # the permanent number used in game codes, if built in
    flowers: bool = False  # whether deals on it include the 8 flowers and seasons
    covers: tuple[int, ...] = field(init=False, repr=False)
    left: tuple[int, ...] = field(init=False, repr=False)
    right: tuple[int, ...] = field(init=False, repr=False)
    below: tuple[int, ...] = field(init=False, repr=False)
    affects: tuple[int, ...] = field(init=False, repr=False)
    under_all: tuple[int, ...] = field(init=False, repr=False)
    full: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        for key, value in _geometry(self.positions).items():
            set_(self, key, value)
        set_(self, "full", (1 << len(self.positions)) - 1)

    def __len__(self) -> int:
        return len(self.positions)

    def is_free(self, i: int, alive: int) -> bool:
        return not alive & self.covers[i] and (
            not alive & self.left[i] or not alive & self.right[i]
        )

    def free_mask(self, alive: int) -> int:
        """Bitmask of the live tiles that are free."""
        covers, left, right = self.covers, self.left, self.right
        free = 0
        for i in iter_bits(alive):
            if not alive & covers[i] and (not alive & left[i] or not alive & right[i]):
                free |= 1 << i
        return free

    def update_free(self, free: int, alive: int, removed: int) -> int:
        """The free mask after `removed` (a bitmask) left a position whose free mask was `free`.

        Removing tiles can only free others, and only those they covered or touched.
        """
        affects, covers, left, right = self.affects, self.covers, self.left, self.right
        touched = 0
        while removed:  # bit loops written out: this is the solver's hottest code
            low = removed & -removed
            touched |= affects[low.bit_length() - 1]
            removed ^= low
        free &= alive
        todo = touched & alive & ~free
        while todo:
            low = todo & -todo
            todo ^= low
            i = low.bit_length() - 1
            if not alive & covers[i] and (not alive & left[i] or not alive & right[i]):
                free |= low
        return free


def iter_bits(mask: int):
    """The indices of the set bits of mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bits(mask: int) -> list[int]:
    return list(iter_bits(mask))


def _geometry(positions) -> dict[str, tuple[int, ...]]:
    n = len(positions)
    covers = [0] * n
    below = [0] * n
    left = [0] * n
    right = [0] * n
    by_cell: dict[tuple[int, int], list[int]] = {}
    for i, (x, y, _z) in enumerate(positions):
        for cx in (x - 1, x, x + 1):
            for cy in (y - 1, y, y + 1):
                by_cell.setdefault((cx, cy), []).append(i)
    for i, (x, y, z) in enumerate(positions):
        # Tiles whose top-left cell lies within one cell of ours overlap ours.
        for j in by_cell.get((x, y), ()):
            zj = positions[j][2]
            if zj > z:
                covers[i] |= 1 << j
                below[j] |= 1 << i
        for j in by_cell.get((x - 1, y), ()) + by_cell.get((x + 1, y), ()):
            xj, yj, zj = positions[j]
            if zj == z and abs(yj - y) < 2:
                if xj == x - 2:
                    left[i] |= 1 << j
                elif xj == x + 2:
                    right[i] |= 1 << j
    affects = [below[i] | left[i] | right[i] for i in range(n)]
    return {
        "covers": tuple(covers),
        "left": tuple(left),
        "right": tuple(right),
        "below": tuple(below),
        "affects": tuple(affects),
        "under_all": _transitive_below(below, positions),
    }


def _transitive_below(below: list[int], positions) -> tuple[int, ...]:
    """For each tile, every tile it holds down directly or through others.

    While tile i is on the table, none of these can become free, whatever else is played.
    """
    order = sorted(range(len(positions)), key=lambda i: positions[i][2])
    closure = [0] * len(positions)
    for i in order:  # lower layers first, so the tiles below are already complete
        acc = below[i]
        for j in iter_bits(below[i]):
            acc |= closure[j]
        closure[i] = acc
    return tuple(closure)


def check_positions(positions, line_of=None) -> None:
    """Reject two tiles sharing a cell on one layer, and an odd number of tiles."""
    seen: dict[tuple[int, int, int], int] = {}
    for i, (x, y, z) in enumerate(positions):
        for cell in ((x, y, z), (x + 1, y, z), (x, y + 1, z), (x + 1, y + 1, z)):
            if cell in seen:
                j = seen[cell]
                where = line_of(i) if line_of else None
                raise LayoutError(
                    f"overlapping tiles at x={x} y={y} z={z} and x={positions[j][0]} "
                    f"y={positions[j][1]} z={positions[j][2]}",
                    where,
                )
            seen[cell] = i
    if not positions:
        raise LayoutError("the layout has no tiles")
    if len(positions) % 2:
        # The count has no line of its own: name the last tile's, where one is most
        # often added or removed.
        x, _y, z = positions[-1]
        where = f"; the last tile starts at column {x + 1} of layer {z + 1}" if line_of else ""
        raise LayoutError(
            f"odd tile count: {len(positions)} tiles cannot all be paired{where}",
            line_of(len(positions) - 1) if line_of else None,
        )


@dataclass(frozen=True)
class LayoutWarning:
    """Something odd the reader read past, as KMahjongg does (docs/LAYOUTS.md §Format)."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def flowers_by_count(tiles: int) -> bool:
    """Whether a layout that is no race level deals the flowers and seasons.

    A full set is 144 tiles with its 8 flowers and seasons, so a layout of 144 places or
    more gets them, as in KMahjongg; a smaller one plays regular faces only, in matching
    pairs (docs/LAYOUTS.md §Faces). Built-in layouts keep their catalogue flag.
    """
    return tiles >= FULL_SET_SIZE


def parse_layout(text: str, name: str = "layout") -> Layout:
    """Read KMahjongg layout text (v1.0 or v1.1); LayoutError names the line and the fault.

    Odd but readable blocks are read as KMahjongg reads them; `parse_layout_report` also
    returns what was odd.
    """
    return parse_layout_report(text, name)[0]


def parse_layout_report(text: str, name: str = "layout") -> tuple[Layout, list[LayoutWarning]]:
    """The layout and the warnings about odd blocks it was read past, in line order."""
    lines = text.splitlines()
    if not lines or lines[0].strip() not in (MAGIC_V10, MAGIC_V11):
        raise LayoutError(f"not a KMahjongg layout: expected {MAGIC_V10!r} or {MAGIC_V11!r}", 1)
    v11 = lines[0].strip() == MAGIC_V11
    width, height, depth = V10_SIZE
    sizes: dict[str, int] = {}
    rows: list[tuple[int, str]] = []  # (line number, text) of grid rows
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        if v11 and line[0] in "whd" and not rows:
            sizes[line[0]] = _size_value(line, number)
            continue
        if v11 and line[0] in "whd":
            raise LayoutError(f"size line {line!r} after the grid started", number)
        rows.append((number, line))
    if v11:
        missing = [key for key in "whd" if key not in sizes]
        if missing:
            raise LayoutError(f"bad size: missing the {', '.join(missing)} line(s)", 1)
        width, height, depth = sizes["w"], sizes["h"], sizes["d"]
    return _read_grid(rows, width, height, depth, name, len(lines))


def _size_value(line: str, number: int) -> int:
    digits = line[1:].strip()
    if not digits.isdigit() or not 0 < int(digits) <= MAX_SIDE:
        raise LayoutError(f"bad size: {line!r} is not a positive number", number)
    return int(digits)


def _read_grid(rows, width, height, depth, name, last_line):
    if len(rows) > height * depth:
        raise LayoutError(
            f"bad size: more than {depth} layers of {height} rows", rows[height * depth][0]
        )
    if len(rows) % height:
        raise LayoutError(
            f"bad size: {len(rows)} grid rows is not a whole number of {height}-row layers",
            rows[-1][0] if rows else last_line,
        )
    grid: dict[tuple[int, int, int], str] = {}
    line_at: dict[tuple[int, int], int] = {}
    for k, (number, line) in enumerate(rows):
        if len(line) != width:
            raise LayoutError(f"bad size: row has {len(line)} characters, expected {width}", number)
        z, y = divmod(k, height)
        line_at[(y, z)] = number
        for x, ch in enumerate(line):
            if ch not in ".1234":
                raise LayoutError(f"unknown character {ch!r} at column {x + 1}", number)
            if ch != ".":
                grid[(x, y, z)] = ch
    positions = _tiles_from_grid(grid, line_at, width, height)
    check_positions(positions, lambda i: line_at[(positions[i][1], positions[i][2])])
    warnings = _block_warnings(grid, positions, line_at)
    layout = Layout(name=name, positions=tuple(positions), flowers=flowers_by_count(len(positions)))
    return layout, warnings


def _tiles_from_grid(grid, line_at, width, height) -> list[tuple[int, int, int]]:
    """Each '1' is a tile's top-left cell, as KMahjongg reads it; the tile must fit the
    grid and must not run into another tile's '1'."""
    positions = []
    for x, y, z in sorted(grid, key=lambda c: (c[2], c[1], c[0])):
        if grid[(x, y, z)] != "1":
            continue
        if x + 1 >= width or y + 1 >= height:
            edge = "right" if x + 1 >= width else "bottom"
            raise LayoutError(
                f"bad size: the tile at column {x + 1} runs past the grid's {edge} edge",
                line_at[(y, z)],
            )
        for dx, dy in ((1, 0), (1, 1), (0, 1)):
            if grid.get((x + dx, y + dy, z)) == "1":
                raise LayoutError(
                    f"overlapping tiles: the tile at column {x + 1} runs into the tile "
                    f"starting at column {x + dx + 1}",
                    line_at[(y + dy, z)],
                )
        positions.append((x, y, z))
    return positions


def _block_warnings(grid, positions, line_at) -> list[LayoutWarning]:
    """A '1' whose other three cells are not '2' '3' '4', and a '2' '3' '4' of no tile."""
    warnings = []
    claimed = set()
    for x, y, z in positions:
        for (dx, dy), want in (((1, 0), "2"), ((1, 1), "3"), ((0, 1), "4")):
            cell = (x + dx, y + dy, z)
            claimed.add(cell)
            got = grid.get(cell, ".")
            if got != want:
                message = (
                    f"the tile at column {x + 1} has {got!r} at column {x + dx + 1} where "
                    f"{want!r} belongs; read as a whole tile, as KMahjongg does"
                )
                warnings.append(LayoutWarning(line_at[(y + dy, z)], message))
    for (x, y, z), ch in grid.items():
        if ch != "1" and (x, y, z) not in claimed:
            message = f"{ch!r} at column {x + 1} belongs to no tile; ignored"
            warnings.append(LayoutWarning(line_at[(y, z)], message))
    return sorted(warnings, key=lambda w: w.line)


def read_layout(path: str | Path, name: str | None = None) -> Layout:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LayoutError(f"cannot read layout file {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise LayoutError(f"layout file {str(path)!r} is not UTF-8 text") from None
    return parse_layout(text, name or path.stem)


def layout_from_positions(positions, name: str = "position") -> Layout:
    """A layout made of arbitrary tile positions (e.g. from CLI JSON), validated."""
    positions = [tuple(int(v) for v in p) for p in positions]
    check_positions(positions)
    return Layout(name=name, positions=tuple(positions), flowers=flowers_by_count(len(positions)))


def layout_to_text(layout: Layout, comment: str = "") -> str:
    """Write a layout in the v1.1 format (smallest grid that holds it)."""
    width = max(x for x, _, _ in layout.positions) + 2
    height = max(y for _, y, _ in layout.positions) + 2
    depth = max(z for _, _, z in layout.positions) + 1
    grid = [[["."] * width for _ in range(height)] for _ in range(depth)]
    for x, y, z in layout.positions:
        grid[z][y][x], grid[z][y][x + 1] = "1", "2"
        grid[z][y + 1][x], grid[z][y + 1][x + 1] = "4", "3"
    out = [MAGIC_V11]
    out += [f"# {line}" for line in comment.splitlines()]
    out += [f"w{width}", f"h{height}", f"d{depth}"]
    for z in range(depth):
        out.append(f"# layer {z}")
        out += ["".join(row) for row in grid[z]]
    return "\n".join(out) + "\n"
