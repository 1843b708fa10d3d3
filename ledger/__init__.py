"""Bookkeeping: models, the service API that owns every transaction, balances, settlement, exports."""
