"""The table as a Telegram Mini App: the board, the tile picker and the night, served by aiohttp.

`server.make_webapp` builds the web application (page and JSON API); `telegram.for_application` wires it to the
running bot, and `paiju run` mounts it on its own web server; `paiju web` (`server.main`) serves it alone for
development. Every booking goes through the same command layer as a typed line (`lines` builds that line), so the
Mini App holds no rule of its own.
"""
