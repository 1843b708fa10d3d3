"""The Telegram adapter: python-telegram-bot v22 updates in, the command layer's effects out as Bot API calls."""
