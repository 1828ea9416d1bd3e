"""The conformance record kinds of 双扣 (rules, section 12), in one place.

A module of its own, with no imports, so that ``qipai shuangkou --help`` can
list the kinds without loading the engine; :func:`engines.shuangkou.verify.evaluate`
handles every one of them.
"""

CONFORMANCE_KINDS = (
    "classify",
    "beats",
    "legal_responses_count",
    "trick_next",
    "round_result",
    "round_replay",
)
