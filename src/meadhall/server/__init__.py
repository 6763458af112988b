"""The browser table: a FastAPI server that lets people play every game in a web page.

``svg`` draws a game's :class:`~meadhall.core.draw.Scene`; ``store`` keeps tables in SQLite;
``tables`` runs them (actions, undo, seats, bots); ``app`` serves the API and the pages.
"""
