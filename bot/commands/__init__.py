"""The bot's own commands, one module per concern; each registers into `bot.core.registry` when imported."""
