"""``samurai editions``: list installed editions (or those named), their plugins, the hooks each
implements, and their options.

Listing an edition also starts a game of it for each player count and, where its game offers it
(``GameCommands.try_end_of_game_hooks``), calls the hooks a game calls only at its end, so a plugin that fails
is caught here rather than after a long run."""

from __future__ import annotations

import argparse


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``editions`` to the command line's commands."""
    eds = commands.add_parser("editions", help="list installed editions, their plugins and hooks",
                              description="List editions with their plugins (package and version), the hooks "
                                          "each implements, and their options.")
    eds.add_argument("edition", nargs="*", help="edition ids or manifest paths to show (default: every installed one)")
    eds.add_argument("--merged", action="store_true",
                     help="print each edition's manifest merged with every edition it extends, as TOML (data only: "
                          "no plugin is run)")
    eds.set_defaults(run=_editions)


def _editions(args: argparse.Namespace) -> int:
    from ..catalog.editions import available_editions, installed_plugins, is_plugin_file, load_edition, plugin_hooks

    if args.merged:
        _print_merged(args.edition or list(available_editions()))
        return 0
    plugins = installed_plugins()
    for ident in args.edition or available_editions():
        edition = load_edition(ident)
        manifest = edition.manifest
        extends = f", extends {manifest.extends}" if manifest.extends else ""
        print(f"{manifest.id} {manifest.version}: {manifest.name}{extends}")
        print(f"  game: {manifest.game} ({edition.game.title})")
        print(f"  manifest: {manifest.path}")
        board = getattr(edition.board, "name", manifest.map)
        print(f"  players: {', '.join(map(str, edition.player_counts))}; map: {board}")
        commands = edition.game.commands
        if commands is not None and commands.edition_lines is not None:
            for line in commands.edition_lines(edition):
                print(f"  {line}")
        pm = edition.plugin_manager
        for name, plugin in pm.list_name_plugin():  # the engine's plugins, then the manifest's, as registered
            if plugin is None:  # a name pluggy keeps blocked holds no plugin
                continue
            info = plugins.get(name)
            origin = f"{info.package} {info.version}" if info else "file" if is_plugin_file(name) else "engine"
            print(f"  plugin {name} ({origin}): {', '.join(plugin_hooks(pm, plugin))}")
        for option in manifest.options.values():
            print(f"  option {option.name} = {option.default!r}: {option.description}")
        for players in edition.player_counts:
            edition.start(players, 0)  # a game that cannot start is caught when its edition is listed
        if commands is not None and commands.try_end_of_game_hooks is not None:
            commands.try_end_of_game_hooks(edition)
    return 0



def _print_merged(names: list[str]) -> None:
    """Each edition's merged manifest as TOML, a comment line naming it first."""
    from pathlib import PurePath
    from typing import Any

    import tomli_w

    from ..catalog.editions import merged_manifest

    def plain(value: Any) -> Any:  # plugin files are paths once read: TOML writes them as text
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        if isinstance(value, list):
            return [plain(item) for item in value]
        return str(value) if isinstance(value, PurePath) else value

    merged = [(name, tomli_w.dumps(plain(merged_manifest(name)))) for name in names]  # every refusal before output
    for number, (name, text) in enumerate(merged):
        if number:
            print()
        print(f"# {name}, merged with every edition it extends")
        print(text, end="")
