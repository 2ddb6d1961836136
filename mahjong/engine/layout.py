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
        raise LayoutError(f"odd tile count: {len(positions)} tiles cannot all be paired")


def parse_layout(text: str, name: str = "layout") -> Layout:
    """Read KMahjongg layout text (v1.0 or v1.1); LayoutError names the line and the fault."""
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


def _read_grid(rows, width, height, depth, name, last_line) -> Layout:
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
    positions = _tiles_from_grid(grid, line_at)
    check_positions(positions, lambda i: line_at[(positions[i][1], positions[i][2])])
    return Layout(name=name, positions=tuple(positions))


def _tiles_from_grid(grid, line_at) -> list[tuple[int, int, int]]:
    """Each '1' is a tile's top-left cell; '2' '3' '4' must complete its 2x2 block."""
    positions = []
    claimed = set()
    for x, y, z in sorted(grid, key=lambda c: (c[2], c[1], c[0])):
        if grid[(x, y, z)] != "1":
            continue
        for (dx, dy), want in (((1, 0), "2"), ((1, 1), "3"), ((0, 1), "4")):
            got = grid.get((x + dx, y + dy, z), ".")
            row = line_at.get((y + dy, z), line_at[(y, z)])
            if got == "1":
                raise LayoutError(
                    f"overlapping tiles: the tile at column {x + 1} runs into the tile "
                    f"starting at column {x + dx + 1}",
                    row,
                )
            if got != want:
                raise LayoutError(
                    f"broken 2x2 block: the tile at column {x + 1} needs {want!r} at column "
                    f"{x + dx + 1}, found {got!r}",
                    row,
                )
            claimed.add((x + dx, y + dy, z))
        positions.append((x, y, z))
    for cell, ch in grid.items():
        if ch != "1" and cell not in claimed:
            x, y, z = cell
            raise LayoutError(
                f"broken 2x2 block: {ch!r} at column {x + 1} belongs to no tile", line_at[(y, z)]
            )
    return positions


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
    return Layout(name=name, positions=tuple(positions))


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
