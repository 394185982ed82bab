"""The ClubDesk user guide (issue 30): MyST Markdown pages, English source, translated through gettext.

Build it with ``scripts/dev.sh guide`` (all four languages, warnings as errors) or
``python scripts/guide.py build --lang es --out build/guide/es``: that script stages this folder with the
language's screenshots in ``_shots/`` (made by ``scripts/dev.sh screenshots``) before Sphinx runs.
"""

project = "ClubDesk"
author = "ClubDesk"
copyright = "ClubDesk contributors"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "locale", "README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 2

language = "en"
locale_dirs = ["locale/"]
gettext_compact = True  # one catalog per page: first-night.pot, gaple.pot, …
gettext_uuid = False
gettext_location = False  # no file:line comments: the catalogs do not change when a paragraph moves
gettext_additional_targets: list[str] = []

html_theme = "alabaster"
html_title = "ClubDesk"
html_static_path: list[str] = []
html_show_sourcelink = False
html_copy_source = False
html_search = True
html_theme_options = {"nosidebar": False, "show_relbars": True}
