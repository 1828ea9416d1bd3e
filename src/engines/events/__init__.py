"""Bridge events: board scoring, weekly Rates, 贴点赛, team matches, ladder, pairs and Swiss.

Everything above a single deal's score, as the event rules define it
(``docs/rules/bridge-events.md``): the 复式 stream scoring of a board, the
weekly Rate (牌技指数), 贴点 results against the side's high-card points,
VP team matches and the ladder, pairs events with one or two winners, the
automatic Swiss pairs event (registration, pairing, standings, ranking),
masterpoints and grades.  Averages, percentages and Rates are exact
fractions wherever they decide an order.

Modules: :mod:`~engines.events.scoring` (datum, methods, stream scoring),
:mod:`~engines.events.rate`, :mod:`~engines.events.tiedian`,
:mod:`~engines.events.teams`, :mod:`~engines.events.pairs`,
:mod:`~engines.events.swiss` (with :mod:`~engines.events.matching`),
:mod:`~engines.events.awards`, :mod:`~engines.events.files` (typed inputs and
file validation), :mod:`~engines.events.verify` (the case format),
:mod:`~engines.events.expected` (the DD-built 贴点 table) and
:mod:`~engines.events.demo`.  Names are imported lazily.

Example:
    >>> from engines.events import team_match, masterpoints
    >>> team_match([(420, -50), (-100, 140)]).margin
    4
    >>> masterpoints(9)
    [3, 2, 2, 2, 0, 0, 0, 0, 0]
"""

from __future__ import annotations

from engines.lazy import lazy_exports

_EXPORTS = {
    "EventInputError": "errors",
    "EventFileError": "errors",
    "datum": "scoring",
    "datum_imps": "scoring",
    "cross_sums": "scoring",
    "cross_averages": "scoring",
    "mp_percentages": "scoring",
    "board_values": "scoring",
    "stream_board": "scoring",
    "StreamBoard": "scoring",
    "RateParams": "rate",
    "PlayerState": "rate",
    "PlayerWeek": "rate",
    "TableResult": "rate",
    "rate_week": "rate",
    "rate_weeks": "rate",
    "TiedianBoard": "tiedian",
    "tiedian_result": "tiedian",
    "tiedian_session": "tiedian",
    "default_table": "tiedian",
    "deal_hcp": "tiedian",
    "team_match": "teams",
    "MatchResult": "teams",
    "ladder": "teams",
    "Challenge": "teams",
    "Join": "teams",
    "Event": "files",
    "EventResult": "files",
    "Pair": "files",
    "Round": "files",
    "Week": "files",
    "parse_event": "files",
    "parse_week": "files",
    "parse_match": "files",
    "pairs_event": "pairs",
    "RankRow": "pairs",
    "register": "swiss",
    "Standing": "swiss",
    "standing_order": "swiss",
    "choose_bye": "swiss",
    "pair_round": "swiss",
    "event_standings": "swiss",
    "next_round": "swiss",
    "play_event": "swiss",
    "Pairing": "swiss",
    "swiss_ranking": "swiss",
    "run_event": "swiss",
    "SwissRound": "swiss",
    "masterpoints": "awards",
    "grade": "awards",
    "record_mismatches": "verify",
    "verify_file": "verify",
    "build_table": "expected",
}

__all__ = [*sorted(_EXPORTS), "warmup"]


def warmup() -> None:
    """Load every module of the package (there are no compiled kernels to warm up)."""
    import importlib

    for module in sorted(set(_EXPORTS.values())):
        importlib.import_module(f"engines.events.{module}")


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
