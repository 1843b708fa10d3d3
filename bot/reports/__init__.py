"""Reports: the night's settlement post with its chart, statistics on request, exports, `paiju report`.

Every number comes from `ledger.stats` (queries over the ledger); this package only renders them.
"""
