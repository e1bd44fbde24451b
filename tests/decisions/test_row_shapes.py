"""The TypedDicts the decisions area reads rows through (``shaped``) name exactly the columns
their statement returns, and the keys of the maps those columns hold: ``shaped`` declares, it
does not check, so this test does.

Not checked: DecisionNode, AttemptNode and OutcomeNode, nodes returned whole (``RETURN d AS
decision``), whose properties are no column of the statement."""

from __future__ import annotations

import pytest

from graphmem.decisions.rows import (
    AcknowledgedRow,
    AttemptRow,
    Check,
    CoveredSignalRow,
    CurrentSignalRow,
    DecisionRow,
    DependencyRow,
    EvaluatedDecision,
    EvaluatedRule,
    EvaluationRow,
    IdRow,
    KeptDiagnostic,
    ListedDecision,
    OutcomeRow,
    ReasonCount,
    SignalRow,
    StatusRow,
    StoredAlternative,
    StoredRule,
    SubjectsRow,
    SyncedRow,
    UnknownRulesRow,
)
from tests.row_shapes import column_test, map_test, opening_test

pytestmark = pytest.mark.pure

SHAPES: dict[str, type] = {
    "decisions/get_decisions": DecisionRow,
    "decisions/evaluate_reopen_rules": EvaluationRow,
    "decisions/list_live_decisions": ListedDecision,
    "decisions/list_due_candidates": ListedDecision,
    "decisions/list_existing_facts": IdRow,
    "decisions/list_decisions_watching_facts": IdRow,
    "decisions/mark_stale_decisions": IdRow,
    "decisions/get_attempt": StatusRow,
    "decisions/get_review_signal": StatusRow,
    "decisions/acknowledge_review_signal": AcknowledgedRow,
    "decisions/list_current_signals": CurrentSignalRow,
    "decisions/sync_review_signals": SyncedRow,
    "decisions/list_unknown_rules": UnknownRulesRow,
    "decisions/create_attempt": AttemptRow,
    "decisions/create_outcome": OutcomeRow,
    "decisions/list_watched_subjects": SubjectsRow,
    "decisions/list_changed_subjects": SubjectsRow,
}

# A column that holds a map (or a list of maps) written in the column itself: its keys' shape.
MAPS: dict[tuple[str, str], type] = {
    ("decisions/get_decisions", "depends_on"): DependencyRow,  # the fact's map (THEN)
    ("decisions/evaluate_reopen_rules", "decisions"): EvaluatedDecision,
    ("decisions/acknowledge_review_signal", "signal"): SignalRow,
    ("decisions/list_current_signals", "signal"): CoveredSignalRow,
    ("decisions/list_unknown_rules", "by_reason"): ReasonCount,
}

# A map built elsewhere in the statement (a subquery, a WITH, a nested list) that a column
# returns: where it opens (the statement's text up to its brace, which occurrence), its shape.
OPENINGS: dict[tuple[str, str, int], type] = {
    ("decisions/get_decisions", "RETURN a {", 0): StoredAlternative,  # alternatives
    ("decisions/get_decisions", "| r {", 0): StoredRule,  # an alternative's rules
    ("decisions/get_decisions", "ELSE {", 0): DependencyRow,  # depends_on, a key's map
    ("decisions/evaluate_reopen_rules", "WITH d, collect({", 0): EvaluatedRule,  # rules
    ("decisions/evaluate_reopen_rules", "| e {", 0): Check,  # a rule's evidence
    ("decisions/sync_review_signals", "RETURN s {", 0): SignalRow,  # signal
    ("decisions/list_unknown_rules", "collect({", 0): KeptDiagnostic,  # page
}


test_a_shape_names_its_statements_columns = column_test(SHAPES)


test_a_map_shape_names_the_keys_its_column_holds = map_test(MAPS)


test_a_map_shape_names_the_keys_of_the_map_returned = opening_test(OPENINGS)
