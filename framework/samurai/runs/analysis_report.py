"""The report of a game's analysis (``samurai analyse-game -o``): one self-contained HTML file, and the graph alone.

The page holds everything inline (no network): the graph of every seat's chance over the game as SVG (one line
per seat in the seat's colour, a red ring on each mistake, a grey bar at each turning point), the lists of mistakes
and turning points, and the board after every move as its mover saw it (the game's own renderer; in Knizia's game
the move played's hexes outlined solid, the preferred move's dashed green), with a slider over the moves and the
move played and the preferred one in the game's words. The boards are gzipped and inlined in base64 (a 4-player
game's 12 MB of SVG in about 2.3 MB), unpacked by a small script when shown (``DecompressionStream``); clicking an
entry, a ring or a bar shows its board. Everything read from a record is escaped.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from collections.abc import Mapping
from typing import Any

from .analysis import BLUNDER, MISTAKE, Decision, GameAnalysis

__all__ = ["SEAT_COLOURS", "graph_svg", "report_html"]

SEAT_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
"""The seats' colours (Knizia's renderer's for seats 0 to 3: Okabe-Ito vermillion, blue, bluish green, reddish
purple; then orange and sky blue)."""

_W, _H, _PAD = 760.0, 300.0, 40.0


def _colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def graph_svg(analysis: GameAnalysis, moves: int) -> str:
    """Every seat's chance after each judged move of a game of ``moves`` actions, as a standalone SVG picture."""
    width, height = _W - 2 * _PAD, _H - 2 * _PAD

    def x(number: int) -> float:
        return _PAD + width * number / max(1, moves - 1)

    def y(chance: float) -> float:
        return _PAD + height * (1.0 - min(1.0, max(0.0, chance)))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="chance-graph" width="{_W:g}" height="{_H:g}" '
           f'viewBox="0 0 {_W:g} {_H:g}" font-family="sans-serif" font-size="11">',
           "<title>Each seat's estimated chance to win after each move</title>",
           f'<rect x="0" y="0" width="{_W:g}" height="{_H:g}" fill="#ffffff"/>']
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        out.append(f'<line x1="{_PAD:g}" x2="{_PAD + width:g}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
                   f'stroke="#dddddd"/><text x="{_PAD - 6:g}" y="{y(tick) + 4:.1f}" text-anchor="end">'
                   f"{tick:.2f}</text>")
    out.append(f'<text x="{_PAD + width / 2:g}" y="{_H - 8:g}" text-anchor="middle">move of the game</text>')
    for decision, _ in analysis.turning_points:
        out.append(f'<rect x="{x(decision.number) - 2:.1f}" y="{_PAD:g}" width="4" height="{height:g}" '
                   f'fill="#999999" opacity="0.35" class="turning" data-n="{decision.number}"/>')
    judged = [d for d in analysis.decisions if d.chances is not None]
    for seat in range(analysis.players):
        points = " ".join(f"{x(d.number):.1f},{y(d.chances[seat]):.1f}" for d in judged if d.chances is not None)
        out.append(f'<polyline class="seat-line" data-seat="{seat}" points="{points}" fill="none" '
                   f'stroke="{_colour(seat)}" stroke-width="2"/>')
        out.append(f'<text x="{_PAD + width + 4:g}" y="{_PAD + 14 * seat + 4:g}" fill="{_colour(seat)}">'
                   f"seat {seat}</text>")
    for decision in analysis.mistakes:
        assert decision.chances is not None
        cy = y(decision.chances[decision.seat])
        radius = 6 if decision.grade == "blunder" else 4.5
        out.append(f'<circle class="mistake" data-n="{decision.number}" cx="{x(decision.number):.1f}" '
                   f'cy="{cy:.1f}" r="{radius}" fill="none" stroke="#d00000" stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out)


_STYLE = """body{font-family:sans-serif;margin:1.5em;max-width:1100px;color:#222}
table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #eee;text-align:left}
button.entry{cursor:pointer;border:1px solid #bbb;background:#f7f7f7;border-radius:4px}
.board svg{max-width:100%;height:auto}#analysis-slider{width:60%}
.blunder{color:#a00000;font-weight:bold}.mistake{color:#d00000}"""

_SCRIPT = """const BOARDS=JSON.parse(document.getElementById('analysis-boards').textContent);
const MOVES=JSON.parse(document.getElementById('analysis-moves').textContent);
const slider=document.getElementById('analysis-slider'),board=document.getElementById('analysis-board');
const said=document.getElementById('analysis-said');
let asked=0;
async function svgOf(n){const bytes=Uint8Array.from(atob(BOARDS[n]),function(c){return c.charCodeAt(0)});
const stream=new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
return await new Response(stream).text();}
async function show(n){n=Number(n);slider.value=n;const move=MOVES[n];said.textContent=move;asked=n;
if(!(n in BOARDS)){board.replaceChildren();return;}
const svg=await svgOf(n);if(asked!==n)return;board.innerHTML=svg;board.dataset.n=String(n);}
slider.addEventListener('input',function(){show(slider.value)});
document.querySelectorAll('[data-n]').forEach(function(e){if(e===board)return;
e.addEventListener('click',function(){show(e.dataset.n);board.scrollIntoView({block:'nearest'});});});
show(slider.value);"""


def _words(words: Mapping[int, tuple[str, str]], decision: Decision) -> tuple[str, str]:
    return words.get(decision.number, (json.dumps(list(decision.played)), ""))


def _row(decision: Decision, words: Mapping[int, tuple[str, str]], note: str) -> str:
    played, preferred = _words(words, decision)
    loss = decision.loss
    return (f'<tr><td><button class="entry" data-n="{decision.number}">move {decision.number}</button></td>'
            f'<td style="color:{_colour(decision.seat)}">seat {decision.seat}</td>'
            f'<td class="{html.escape(decision.grade)}">{html.escape(note)}</td>'
            f"<td>{html.escape(played)}</td><td>{html.escape(preferred)}</td>"
            f"<td>{'' if loss is None else f'{loss:.2f}'}</td></tr>")


def report_html(analysis: GameAnalysis, *, title: str, moves: int, boards: Mapping[int, str],
                words: Mapping[int, tuple[str, str]]) -> str:
    """The whole report as one HTML page: ``boards`` are the board SVGs by move number (the game's renderer's),
    ``words`` the move played and the preferred one in the game's words by move number."""
    head = ("<th>move</th><th>seat</th><th>what</th><th>played</th><th>the search preferred</th>"
            "<th>chance lost</th>")
    mistakes = "".join(_row(d, words, d.grade) for d in analysis.mistakes)
    turning = "".join(_row(d, words, f"winners' chance {change:+.2f}") for d, change in analysis.turning_points)
    counts = ", ".join(f"seat {seat}: {count}" for seat, count in enumerate(analysis.mistakes_by_seat()))
    winners = ", ".join(f"seat {seat}" for seat in analysis.winners) or "nobody"
    judged = {d.number: d for d in analysis.decisions}
    said = [_said(number, judged.get(number), words) for number in range(moves)]
    # Each board gzipped and in base64 (a 4-player game's boards are some 12 MB as SVG, 2 MB so), unpacked by the
    # page when shown; JSON in a script element holds no "</" (base64 and escaped text).
    packed = {str(n): base64.b64encode(gzip.compress(svg.encode("utf-8"), 9, mtime=0)).decode("ascii")
              for n, svg in sorted(boards.items())}
    first = min((d.number for d in analysis.mistakes), default=min(boards, default=0))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title><style>{_STYLE}</style></head>
<body><h1>{html.escape(title)}</h1>
<p>Won by {winners}. Each decision was searched by <code>{html.escape(analysis.bot)}</code> (seed {analysis.seed})
from the mover's own knowledge. A seat's <em>chance</em> is the search's mean of its returns (1 for a sole win,
1/k for a shared one) after the move played. A <span class="mistake">mistake</span> loses at least {MISTAKE:.2f}
of the mover's chance against the move the search preferred, a <span class="blunder">blunder</span> at least
{BLUNDER:.2f}. Mistakes by seat: {html.escape(counts)}.</p>
<figure>{graph_svg(analysis, moves)}<figcaption>Each seat's chance after each move; red rings: mistakes; grey bars:
turning points. Click one, or an entry below, to see the board.</figcaption></figure>
<h2>Mistakes</h2><table><tr>{head}</tr>{mistakes or '<tr><td colspan="6">none</td></tr>'}</table>
<h2>Turning points</h2><table><tr>{head}</tr>{turning or '<tr><td colspan="6">none</td></tr>'}</table>
<h2>The board</h2>
<p>After move <input id="analysis-slider" type="range" min="0" max="{max(0, moves - 1)}" value="{first}"
aria-label="move"> as its mover saw it: the move played outlined, the one the search preferred dashed.</p>
<p id="analysis-said"></p><div id="analysis-board" class="board"></div>
<script type="application/json" id="analysis-boards">{_json_in_script(packed)}</script>
<script type="application/json" id="analysis-moves">{_json_in_script(said)}</script>
<script>{_SCRIPT}</script></body></html>
"""


def _said(number: int, decision: Decision | None, words: Mapping[int, tuple[str, str]]) -> str:
    """One line on move ``number`` for the board's caption."""
    played, preferred = words.get(number, ("", ""))
    if decision is None:
        return f"move {number}: {played}"
    line = f"move {number}, seat {decision.seat}: {played}"
    if decision.forced:
        return f"{line} (forced)"
    loss = decision.loss
    lost = "" if loss is None else f", chance lost {loss:.2f}"
    return f"{line}; the search preferred {preferred} ({decision.grade}{lost})"


def _json_in_script(value: Any) -> str:
    """``value`` as JSON safe inside a script element (no "</", "<!--" or "]]>")."""
    return json.dumps(value, sort_keys=True).replace("<", "\\u003c").replace(">", "\\u003e")


def describe_text(described: Any) -> str:
    """An action in the game's words (``GameState.describe``'s dict) as one short line."""
    if isinstance(described, Mapping):
        return ", ".join(f"{key} {value}" if key != "action" else str(value) for key, value in described.items())
    return json.dumps(described)
