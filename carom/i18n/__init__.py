"""The user's language: message catalogues, the language chosen, numbers and dates.

* :data:`LANGUAGES`: the languages every catalogue has (English first, the fallback);
* :class:`Catalogue`: one domain's messages (``report``, ``web`` ...), read from
  ``carom/i18n/messages/<domain>.<lang>.json``, each a flat ``{key: template}`` with
  ``{name}`` placeholders; :meth:`Catalogue.text` fills one in, falling back to English
  for a language or key the catalogue lacks;
* :func:`pick_language`: a table's setting, else the browser's ``Accept-Language``,
  else English;
* :func:`format_number`, :func:`format_date`: as the language writes them;
* :func:`template_regex`: an English sentence with ``{fields}`` read back into its
  fields (the pages and the report key the sentences other layers write in English).

Adding a language: one JSON file per domain (a test checks that every language has
every English key with the same placeholders) and a line in :data:`LANGUAGES`.
"""

from carom.i18n._catalogue import Catalogue, CatalogueError, catalogue
from carom.i18n._language import (
    LANGUAGES,
    environment_language,
    language_code,
    language_name,
    pick_language,
    user_language,
)
from carom.i18n._locale_format import format_date, format_number
from carom.i18n._templates import NUMBER, TemplateReader, template_fields, template_regex
from carom.i18n._text_width import display_width, pad_to

__all__ = [
    "LANGUAGES",
    "NUMBER",
    "Catalogue",
    "CatalogueError",
    "TemplateReader",
    "catalogue",
    "display_width",
    "environment_language",
    "format_date",
    "format_number",
    "language_code",
    "language_name",
    "pad_to",
    "pick_language",
    "template_fields",
    "template_regex",
    "user_language",
]
