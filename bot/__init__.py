"""Chat adapters (Telegram, console) over one command layer; message texts and moderation."""
