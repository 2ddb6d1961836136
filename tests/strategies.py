"""Hypothesis strategies shared by the hostile-input fuzzers."""

from hypothesis import strategies as st

# Any JSON value, nested a little: what a hostile client can put in any field.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
