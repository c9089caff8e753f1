"""Counts the public symbols of the symbol graphs in DIR that carry a documentation comment.

    python3 tools/doc_coverage.py DIR [--list]

Symbols the compiler synthesizes (no source location: Equatable / Hashable / Codable / RawRepresentable members,
protocol default implementations) are not counted. Exit status 1 when any counted symbol is undocumented.
"""
import json
import pathlib
import sys


def main() -> int:
    directory = pathlib.Path(sys.argv[1])
    total, missing = 0, []
    for path in sorted(directory.glob("*.symbols.json")):
        graph = json.loads(path.read_text())
        module = graph["module"]["name"]
        for symbol in graph["symbols"]:
            location = symbol.get("location", {}).get("uri", "")
            if not location or "/Sources/" not in location:
                continue
            total += 1
            if not symbol.get("docComment", {}).get("lines"):
                missing.append(f"{module}.{'.'.join(symbol['pathComponents'])} ({location.split('/Sources/')[-1]})")
    print(f"doc coverage: {total - len(missing)} of {total} public symbols documented")
    if missing:
        shown = missing if "--list" in sys.argv else missing[:20]
        print("undocumented:\n  " + "\n  ".join(shown) + ("" if len(shown) == len(missing) else "\n  …"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
