"""English is the language of the code: its catalogue translates every message to itself.

`make messages` runs this after updating the catalogues, so new messages need translating in the
other five languages only. Usage: python locale/english.py locale/en/LC_MESSAGES/django.po
"""

from __future__ import annotations

import sys

from babel.messages.pofile import read_po, write_po


def main(path: str) -> None:
    with open(path, "rb") as po_file:
        catalogue = read_po(po_file, locale="en")
    for message in catalogue:
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
    with open(path, "wb") as po_file:
        write_po(po_file, catalogue, width=76, ignore_obsolete=True, include_previous=False)


if __name__ == "__main__":
    main(sys.argv[1])
