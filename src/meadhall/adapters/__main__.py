"""``python -m meadhall.adapters``: write a game's vocabulary file, print its observation layout.

    python -m meadhall.adapters vocabulary niflheim --setup '{"scenario": "1"}' -o nif1.json
    python -m meadhall.adapters layout toy
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from meadhall.adapters.observation import describe_layout, layout_of
from meadhall.adapters.table import Table
from meadhall.adapters.vocabulary import Vocabulary
from meadhall.core.errors import MeadhallError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="The RL adapters' vocabulary files and observation layouts.")

SetupOption = Annotated[str | None, typer.Option("--setup", help="the setup as JSON "
                                                 "(default: the game's default setup)")]


def _setup(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        setup = json.loads(text)
    except json.JSONDecodeError as e:
        raise typer.BadParameter(f"--setup is not JSON: {e.msg}") from None
    if not isinstance(setup, dict):
        raise typer.BadParameter("--setup must be a JSON object such as '{\"scenario\": \"1\"}'")
    return setup


def _table(game: str, setup: str | None) -> Table:
    try:
        return Table.of(game, _setup(setup))
    except (MeadhallError, NotImplementedError, ValueError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from None


@app.command()
def vocabulary(game: str, setup: SetupOption = None,
               output: Annotated[Path | None, typer.Option("-o", "--output",
                                                           help="write the file here")] = None,
               ) -> None:
    """Print the action numbering of GAME, or write it (with the content hash and the
    observation layout) to a vocabulary file."""
    table = _table(game, setup)
    try:
        v = Vocabulary.of(table.game, table.setup)
    except NotImplementedError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from None
    if output is None:
        for i, text in enumerate(v.actions):
            typer.echo(f"{i}\t{text}")
        return
    v.save(output, describe_layout(layout_of(table)))
    typer.echo(f"{output}: {len(v)} actions of {v.game} {json.dumps(v.setup)}")


@app.command()
def layout(game: str, setup: SetupOption = None) -> None:
    """Print the observation layout of GAME (pieces, shapes, channel and entry names) as JSON."""
    table = _table(game, setup)
    typer.echo(json.dumps(describe_layout(layout_of(table)), indent=1))


if __name__ == "__main__":
    app()
