"""The conformance record kinds of 升级 (rules, section 15), in one place.

A module of its own, with no imports, so that ``qipai shengji --help`` can
list the kinds without loading the engine; :func:`engines.shengji.verify.evaluate`
handles every one of them.
"""

CONFORMANCE_KINDS = (
    "is_tractor",
    "follow_legal",
    "legal_follows_count",
    "trick_winner",
    "throw_valid",
    "score",
    "bid",
)
